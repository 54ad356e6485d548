/**
 * Owner events: what the hub tells its owner's channels (contact requests, budget
 * warnings, failovers, dropped outbox messages). One in-process bus
 * ({@linkcode OwnerEventBus}) over a durable file (`<data>/net/events.jsonl`), each
 * event with a stable, sortable id; served to other processes by the control API's
 * `GET /events` (server-sent events).
 *
 * @module
 */
export * from "./types.ts";
export * from "./event_id.ts";
export * from "./log.ts";
export * from "./bus.ts";
export * from "./sentences.ts";
export * from "./said.ts";
export * from "./stream.ts";
