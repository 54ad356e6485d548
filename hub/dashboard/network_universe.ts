/**
 * The Network page's universe and digest routes. The universe actions are the same
 * calls as `agent net universe join | leave | status` (`hub/network/universe_actions.ts`),
 * so the page and the command write the same profile, publish the same card and say
 * the same sentences; the digest is what the network digest told the owner (its
 * `net.digest` owner events) and what it has gathered for the next one.
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET network/universe` | `agent net universe status` as JSON (`{host: ""}` when off) |
 * | `POST network/universe/join` `{owner?, about?, links?}` | `agent net universe join` |
 * | `POST network/universe/leave` | `agent net universe leave` |
 * | `POST network/universe/links` `{on}` | `agent net universe join --links` / `--no-links` |
 * | `GET network/digest` | `{mode, told: [...], gathered: {conversations, due_ms} \| null}` |
 *
 * @module
 */
import { HttpError, json, methodNotAllowed } from "@agent/net";
import {
  joinUniverse,
  leaveUniverse,
  UniverseClient,
  universeFailure,
  universeFieldsProblem,
  type UniverseJoinFields,
  universeSentence,
  universeStanding,
} from "../network/mod.ts";
import { jsonBody, pageLang } from "./body.ts";
import type { NetworkSources } from "./types.ts";

/** How many told digests the page shows. */
const TOLD = 5;

/** Answers the universe and digest routes; `undefined` for any other name. */
export async function universeRoute(
  name: string,
  request: Request,
  sources: NetworkSources,
): Promise<Response | undefined> {
  if (name === "network/digest") {
    get(request);
    const told = (await sources.digests?.() ?? []).slice(-TOLD).reverse();
    const gathered = await sources.gathered?.();
    return json({
      mode: sources.digestMode?.() ?? "off",
      told,
      gathered: gathered === undefined
        ? null
        : { conversations: gathered.conversations, due_ms: gathered.dueMs },
    });
  }
  if (name !== "network/universe" && !name.startsWith("network/universe/")) return undefined;
  const lang = pageLang(request, sources.lang);
  const host = sources.universeHost?.().trim() ?? "";
  const node = sources.node();
  if (name === "network/universe") {
    get(request);
    if (host === "") return json({ host: "", off: universeSentence(lang, "off") });
    if (node === undefined) throw new HttpError(409, "not_configured");
    try {
      const client = new UniverseClient(node, host);
      return json(await universeStanding(node, client, lang));
    } catch (error) {
      throw refusal(lang, host, error);
    }
  }
  if (request.method !== "POST") methodNotAllowed(["POST"]);
  const body = await jsonBody(request);
  if (host === "") {
    throw new HttpError(409, "bad_request", { detail: universeSentence(lang, "off") });
  }
  if (node === undefined) throw new HttpError(409, "not_configured");
  try {
    const client = new UniverseClient(node, host);
    switch (name) {
      case "network/universe/join":
      case "network/universe/links": {
        const fields: UniverseJoinFields = name === "network/universe/links"
          ? { links: flag(body.on, "on") }
          : {
            ...(body.owner === undefined ? {} : { owner: text(body.owner, "owner") }),
            ...(body.about === undefined ? {} : { about: text(body.about, "about") }),
            ...(body.links === undefined ? {} : { links: flag(body.links, "links") }),
          };
        const problem = universeFieldsProblem(lang, fields);
        if (problem !== undefined) throw new HttpError(400, "bad_request", { detail: problem });
        const joined = await joinUniverse(node, client, sources.subs?.(), fields);
        return json({
          said: universeSentence(lang, "joined", { ...joined, links: joined.visibleLinks }),
        });
      }
      case "network/universe/leave":
        return json({ said: universeSentence(lang, "left", await leaveUniverse(node, client)) });
    }
  } catch (error) {
    throw refusal(lang, host, error);
  }
  throw new HttpError(404, "not_found");
}

/** A failure the command would name in one sentence becomes a 502 with it. */
function refusal(lang: NetworkSources["lang"], host: string, error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const sentence = universeFailure(lang, host, error);
  return sentence === undefined ? error : new HttpError(502, "universe", { detail: sentence });
}

function get(request: Request): void {
  if (request.method !== "GET" && request.method !== "HEAD") methodNotAllowed(["GET", "HEAD"]);
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string") {
    throw new HttpError(400, "bad_request", { detail: `${field}: not text` });
  }
  return value;
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") {
    throw new HttpError(400, "bad_request", { detail: `${field}: true or false` });
  }
  return value;
}
