/**
 * MCP servers the owner plugs in: the client (stdio with a scrubbed environment and an
 * optional bubblewrap sandbox, or Streamable HTTP, on the official SDK), the pins that
 * disable a server whose tool list changed, and the servers' tools as the agent's
 * (tier 2 unless lowered by name, untrusted results cut at a limit).
 *
 * @module
 */
export * from "./connection.ts";
export * from "./pins.ts";
export * from "./server_env.ts";
export * from "./servers.ts";
export * from "./tools.ts";
export { t as mcpSentence } from "./_messages.ts";
