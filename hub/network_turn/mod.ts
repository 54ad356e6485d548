/**
 * Network turns: how the agent and its public sub-agents answer messages from
 * accepted contacts. {@linkcode turnAnswerer} gives the hub's network service the
 * `TurnAnswerer` it calls for every `message` from an accepted contact (a
 * {@linkcode networkTurn}); the frame, sanitising, `[no reply]` matching and reply ids
 * are exported for tests and tools. It sits beside the agent, a layer above the
 * network service, which knows only the `TurnAnswerer` shape.
 *
 * @example
 * ```ts
 * import { isNoReply, replyId } from "./mod.ts";
 * if (!isNoReply("[NO REPLY]")) throw new Error();
 * const id = await replyId("a.example", "b.example", "AAAAAAAAAAAAAAAA");
 * if (id.length !== 32) throw new Error(id);
 * ```
 *
 * @module
 */
export * from "./sanitise.ts";
export * from "./frame.ts";
export * from "./no_reply.ts";
export * from "./reply_id.ts";
export * from "./turn.ts";
