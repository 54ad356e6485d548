/**
 * MCP servers the owner plugs in: the client (stdio with a scrubbed environment and an
 * optional bubblewrap sandbox, or Streamable HTTP, on the official SDK), the pins that
 * disable a server whose tool list changed, and the servers' tools as the agent's
 * (tier 2 unless lowered by name, untrusted results cut at a limit).
 *
 * A light door (`@agent/hub/mcp`): `agent mcp` starts without the model SDKs; the MCP
 * SDK itself loads with the first connection's module.
 *
 * @module
 */

// One server: connect, list, call, and the sentence of each way it fails.
export {
  type McpCallResult,
  type McpConnectOptions,
  McpConnection,
  type McpFailure,
  McpServerError,
} from "./connection.ts";

// Pins: the hash of a tool list, the owner's pins and what changed since.
export {
  canonicalJson,
  type ListedTool,
  type PinRecord,
  PINS_FILE,
  PinStore,
  type ToolChange,
  toolListChanges,
  toolListHash,
} from "./pins.ts";

// What a stdio server receives of the environment, and an HTTP server of the headers.
export { BASE_VARIABLES, serverEnv, serverHeaders } from "./server_env.ts";

// The servers of a process (the hub, a chat) and their tools as the agent's.
export {
  type McpServerStatus,
  McpServers,
  type McpServersOptions,
  type McpState,
} from "./servers.ts";
export {
  MAX_RESULT_CHARS,
  type McpCaller,
  modelToolName,
  resultText,
  serverTools,
} from "./tools.ts";

// The sentences (`agent mcp`, the dashboard, the components list).
export { t as mcpSentence } from "./_messages.ts";
