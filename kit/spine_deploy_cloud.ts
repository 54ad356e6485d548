/**
 * The cloud half of `agent net spine deploy`: what a project's `wrangler.jsonc` says
 * (cloud mode, a `DB` binding, an empty `SPINE_URL`), filling `SPINE_URL`, and
 * registering the messenger's webhook with the Bot API so updates end at the spine.
 *
 * @module
 */
import { parseJsonc } from "./_jsonc.ts";

/** The Bot API root when `MESSENGER_API_ROOT` is not set. */
export const DEFAULT_MESSENGER_API_ROOT = "https://api.telegram.org";

/** The updates the webhook asks for: messages and inline-button presses. */
export const WEBHOOK_UPDATES = ["message", "callback_query"] as const;

/** The secrets a cloud project may get besides `HUB_TOKEN`, in the order they are set. */
export const CLOUD_SECRET_ORDER = [
  "VENDOR_A_API_KEY",
  "VENDOR_A_WORKSPACE_ID",
  "VENDOR_B_API_KEY",
  "VENDOR_C_API_KEY",
  "VENDOR_C_ALT_API_KEY",
  "VENDOR_D_REGION",
  "VENDOR_D_ACCESS_KEY_ID",
  "VENDOR_D_SECRET_ACCESS_KEY",
  "VENDOR_D_BEARER_TOKEN",
  "MESSENGER_BOT_TOKEN",
  "MESSENGER_ALLOWED_CHAT_IDS",
  "AGENT_NET_IDENTITY",
] as const;

/** What a spine project's `wrangler.jsonc` says about cloud mode. */
export interface SpineProjectInfo {
  /** `vars.AGENT_MODE` is `cloud`. */
  cloud: boolean;
  /** A `d1_databases` entry binds `DB`. */
  database: boolean;
  /** `vars.SPINE_URL`, trimmed (empty when unset). */
  spineUrl: string;
}

/**
 * Reads what deploy needs from the project's `wrangler.jsonc` text.
 *
 * @throws {SyntaxError} when the text is not JSONC.
 * @example
 * ```ts
 * import { readSpineProject } from "./spine_deploy_cloud.ts";
 * const info = readSpineProject('{"d1_databases": [{"binding": "DB"}], "vars": {"AGENT_MODE": "cloud"}}');
 * if (!info.cloud || !info.database || info.spineUrl !== "") throw new Error();
 * ```
 */
export function readSpineProject(text: string): SpineProjectInfo {
  const config = parseJsonc(text);
  const vars = config?.vars ?? {};
  const databases: unknown[] = Array.isArray(config?.d1_databases) ? config.d1_databases : [];
  return {
    cloud: typeof vars.AGENT_MODE === "string" && vars.AGENT_MODE.trim() === "cloud",
    database: databases.some((d) => (d as { binding?: unknown })?.binding === "DB"),
    spineUrl: typeof vars.SPINE_URL === "string" ? vars.SPINE_URL.trim() : "",
  };
}

/**
 * Writes `url` into an empty `"SPINE_URL": ""` of the project's `wrangler.jsonc` text;
 * `undefined` when there is no such entry (left as the user wrote it).
 *
 * @example
 * ```ts
 * import { fillSpineUrl } from "./spine_deploy_cloud.ts";
 * const text = fillSpineUrl('{ "vars": { "SPINE_URL": "" } }', "https://a.example");
 * if (text !== '{ "vars": { "SPINE_URL": "https://a.example" } }') throw new Error(text);
 * ```
 */
export function fillSpineUrl(text: string, url: string): string | undefined {
  const pattern = /"SPINE_URL"(\s*):(\s*)""/;
  if (!pattern.test(text)) return undefined;
  return text.replace(
    pattern,
    (_, a: string, b: string) => `"SPINE_URL"${a}:${b}${JSON.stringify(url)}`,
  );
}

/** Why {@linkcode registerWebhook} failed. */
export class WebhookError extends Error {
  override name = "WebhookError";
  /** Makes the error; `message` never holds the bot token. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/** What {@linkcode registerWebhook} sends. */
export interface WebhookRegistration {
  /** The bot's token (only ever in the request path). */
  botToken: string;
  /** The Bot API root. @default {@linkcode DEFAULT_MESSENGER_API_ROOT} */
  apiRoot?: string | undefined;
  /** The spine's public URL, without a trailing slash. */
  spineUrl: string;
  /** The hub token, from which the webhook's secret is derived. */
  hubToken: string;
  /** How requests are sent. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * `setWebhook`: updates go to `<spine>/messenger/webhook` with the secret the spine
 * checks (`messengerWebhookSecret(HUB_TOKEN)`), messages and button presses only.
 *
 * @throws {WebhookError} when the Bot API refuses or cannot be reached; the message is
 * scrubbed of the bot token.
 */
export async function registerWebhook(registration: WebhookRegistration): Promise<void> {
  const { messengerWebhookSecret } = await import("@agent/net");
  const root = (registration.apiRoot?.trim() || DEFAULT_MESSENGER_API_ROOT).replace(/\/+$/, "");
  const token = registration.botToken;
  const scrub = (text: string) => token === "" ? text : text.split(token).join("***");
  const send = registration.fetch ?? fetch;
  let response: Response;
  try {
    response = await send(`${root}/bot${token}/setWebhook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        url: `${registration.spineUrl.replace(/\/+$/, "")}/messenger/webhook`,
        secret_token: await messengerWebhookSecret(registration.hubToken),
        allowed_updates: WEBHOOK_UPDATES,
      }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new WebhookError(scrub(`the Bot API at ${root} cannot be reached: ${detail}`));
  }
  let body: { ok?: unknown; description?: unknown } = {};
  try {
    body = await response.json();
  } catch {
    // A non-JSON answer is described by its status below.
  }
  if (response.ok && body.ok === true) return;
  const description = typeof body.description === "string" ? body.description : "";
  throw new WebhookError(
    scrub(`the Bot API answered ${response.status}${description ? `: ${description}` : ""}`),
  );
}
