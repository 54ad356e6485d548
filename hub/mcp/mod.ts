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
  McpConnection,
  type McpConnectOptions,
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
  McpServers,
  type McpServersOptions,
  type McpServerStatus,
  type McpState,
} from "./servers.ts";
export {
  definitionTokens,
  MAX_RESULT_CHARS,
  type McpCaller,
  modelToolName,
  resultText,
  serverTools,
} from "./tools.ts";

// The owner's acts: `agent mcp add|pin|remove|test|list` and the dashboard's Settings.
export {
  addServer,
  configured,
  listServers,
  type McpManageContext,
  type McpToolLine,
  mcpToolLines,
  type PinnedServer,
  pinServer,
  removeServer,
  serverChanges,
  type ServerLine,
  type ServerSpec,
  testServer,
} from "./manage.ts";
export { addServerTable, removeServerTable } from "./config_file.ts";

// Where bubblewrap is (`sandbox = true` needs it).
export { findBwrap } from "../sandbox/mod.ts";
