/**
 * Reading the dashboard's small JSON request bodies.
 *
 * @module
 */
import { HttpError, readRequestBody } from "@agent/net";
import type { Lang } from "../i18n.ts";

/**
 * The language the page shows (`X-Agent-Lang`, which every call of the page sends), so a
 * sentence the hub answers with matches the page the owner switched; else `fallback`,
 * the hub's own.
 */
export function pageLang(request: Request, fallback: Lang): Lang {
  const asked = request.headers.get("x-agent-lang");
  return asked === "en" || asked === "tr" ? asked : fallback;
}

/** A small JSON object body; 400 for anything else. */
export async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(await readRequestBody(request, 64 * 1024)));
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, "bad_request", { detail: "the body is not JSON" });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HttpError(400, "bad_request", { detail: "the body is not a JSON object" });
  }
  return value as Record<string, unknown>;
}
