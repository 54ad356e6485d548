/**
 * The spine Worker: the public inbox, the Mailbox Durable Object, the hub API and the
 * per-minute cron. Runs on workerd; `worker.ts` is the entry module that gets bundled.
 * Everything here uses Web APIs only.
 *
 * @module
 */
export { SPINE_SOFTWARE, SPINE_VERSION } from "./env.ts";
export type { Env, SpineMode } from "./env.ts";
export { handleRequest, runCron } from "./router.ts";
export { MAILBOX_SCHEMA_VERSION } from "./mailbox.ts";
export { BRAIN_PASS_THROUGH, BRAIN_PORT, brainEnvironment } from "./cloud/brain_env.ts";
