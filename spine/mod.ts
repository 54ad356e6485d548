/**
 * The spine Worker: the public inbox, the Mailbox Durable Object, the hub API and the
 * per-minute cron. Runs on workerd.
 *
 * @module
 */
export {};
