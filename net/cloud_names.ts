/**
 * The names of cloud mode (document 3, cloud store resources), shared by the spine that
 * stores them and the hub that sends them: state keys, the file set, session, agent and
 * message ids.
 *
 * @module
 */
import { b64uEncode } from "./b64u.ts";

/** A state key: `^[a-z0-9][a-z0-9._:-]{0,127}$`. */
export const STATE_KEY_PATTERN = /^[a-z0-9][a-z0-9._:-]{0,127}$/;

/** Session and agent ids: `^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A sub-agent file directly in `persona/subs/`: a plain name ending in `.md`. */
export const SUB_FILE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.md$/;

/** The fixed files of the cloud file set, in the order `GET /hub/files` lists them. */
export const FIXED_CLOUD_FILES = [
  "agent.toml",
  "persona/persona.md",
  "persona/user.md",
  "persona/net.md",
] as const;

/** The folder of sub-agent files. */
export const SUBS_PREFIX = "persona/subs/";

/** The folder of scheduled job files. */
export const JOBS_PREFIX = "persona/jobs/";

/** The folders whose plain `.md` files belong to the cloud file set. */
export const CLOUD_FOLDERS: readonly string[] = [SUBS_PREFIX, JOBS_PREFIX];

/** Whether `key` is a valid state key. */
export function isStateKey(key: string): boolean {
  return STATE_KEY_PATTERN.test(key);
}

/** Whether `id` is a valid session or agent id. */
export function isSessionId(id: string): boolean {
  return SESSION_ID_PATTERN.test(id);
}

/** Whether `id` is a valid message id: an integer at least 0. */
export function isMessageId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 0;
}

/**
 * Whether `name` (already URL-decoded) belongs to the cloud file set: one of the fixed
 * files, or `persona/subs/<file>.md` or `persona/jobs/<file>.md` directly in its folder.
 *
 * @example
 * ```ts
 * import { isCloudFileName } from "./cloud_names.ts";
 * if (!isCloudFileName("persona/subs/writer.md")) throw new Error();
 * if (!isCloudFileName("persona/jobs/news.md")) throw new Error();
 * if (isCloudFileName("persona/subs/.hidden.md") || isCloudFileName(".env")) throw new Error();
 * ```
 */
export function isCloudFileName(name: string): boolean {
  if ((FIXED_CLOUD_FILES as readonly string[]).includes(name)) return true;
  return CLOUD_FOLDERS.some((folder) =>
    name.startsWith(folder) && SUB_FILE_PATTERN.test(name.slice(folder.length))
  );
}

/** Sorts cloud file names the way `GET /hub/files` lists them: fixed files, then subs by name. */
export function compareCloudFiles(a: string, b: string): number {
  const rank = (n: string) => {
    const i = (FIXED_CLOUD_FILES as readonly string[]).indexOf(n);
    return i === -1 ? FIXED_CLOUD_FILES.length : i;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The header in which a cloud spine tells its brain which origin a dashboard request
 * reached it at (`https://<spine>`); the brain's dashboard answers only its spine's own.
 * The spine sets it on every request it forwards under `/hub/dashboard`, overwriting
 * anything the browser sent.
 */
export const DASHBOARD_ORIGIN_HEADER = "x-agent-dashboard-origin";

/**
 * The header a dashboard page sends its session token in, locally and behind a cloud
 * spine (which passes it on). A header, not a cookie: a browser sends a cookie to every
 * port of the host, a header only where the page's own script puts it.
 */
export const DASHBOARD_SESSION_HEADER = "x-agent-session";

/**
 * The headers every answer under the dashboard's path carries, a refusal or an error as
 * much as a page (locally from the hub; in cloud mode from the brain and from the spine's
 * own refusals): a strict CSP, no sniffing, no framing, no referrer.
 */
export const DASHBOARD_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

const WEBHOOK_LABEL = "agent messenger webhook/1";

/**
 * The secret Telegram sends with every webhook update (`X-Telegram-Bot-Api-Secret-Token`)
 * in cloud mode: HMAC-SHA256 of a fixed label under the hub token, base64url (43
 * characters of `A-Z a-z 0-9 _ -`, as the Bot API requires). The spine and the deploy
 * command derive the same value, so no second secret has to be kept.
 */
export async function messengerWebhookSecret(hubToken: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(hubToken),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(WEBHOOK_LABEL)),
  );
  return b64uEncode(mac);
}
