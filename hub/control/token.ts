/**
 * The control API's credential: a random token the hub writes to `<data>/hub.token`
 * (mode 0600) each time it starts. Only a process that can read this home's data
 * folder (the owner's CLI, TUI, doctor) can present it, so another local user or a
 * process without access to the folder reads nothing from `/status` or `/net/events`.
 *
 * @module
 */
import { b64uEncode, timingSafeEqual } from "@agent/net";
import { writeFileAtomic } from "../atomic_file.ts";

/** The file name of the token inside the data folder. */
export const HUB_TOKEN_FILE = "hub.token";

/**
 * Makes a fresh token (32 random bytes, base64url) and writes it to `file` with mode
 * 0600, creating the data folder (0700) when it is missing. Returns the token.
 */
export async function writeHubToken(file: string): Promise<string> {
  const token = b64uEncode(crypto.getRandomValues(new Uint8Array(32)));
  await writeFileAtomic(file, `${token}\n`, { mode: 0o600, dirMode: 0o700 });
  return token;
}

/** The token in `file`, or `undefined` when there is none (no hub has started here). */
export async function readHubToken(file: string): Promise<string | undefined> {
  try {
    return (await Deno.readTextFile(file)).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Removes the token file when it still holds `token` (a newer hub may have replaced it). */
export async function removeHubToken(file: string, token: string): Promise<void> {
  if ((await readHubToken(file)) === token) await Deno.remove(file).catch(() => {});
}

/**
 * Whether `request` carries `Authorization: Bearer <token>` (scheme in any case),
 * compared in constant time.
 *
 * @example
 * ```ts
 * import { hasBearer } from "./token.ts";
 * const req = new Request("http://127.0.0.1/", { headers: { authorization: "Bearer abc" } });
 * if (!hasBearer(req, "abc") || hasBearer(req, "abd")) throw new Error();
 * ```
 */
export function hasBearer(request: Request, token: string): boolean {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get("authorization") ?? "");
  return match !== null && timingSafeEqual(match[1]!, token);
}

/** The `Authorization` header for `token`, or none when there is no token. */
export function bearerHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}
