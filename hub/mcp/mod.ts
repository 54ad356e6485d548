/**
 * MCP servers the owner plugs in: the client (stdio with a scrubbed environment and an
 * optional bubblewrap sandbox, or Streamable HTTP, on the official SDK), the pins that
 * disable a server whose tool list changed, and the servers' tools as the agent's
 * (tier 2 unless lowered by name, untrusted results cut at a limit).
 *
 * A light door (`@agent/hub/mcp`): `agent mcp` starts without the model SDKs or zod,
 * and the MCP SDK loads with the first connection. The connection and the servers of a
 * process with their tools as the agent's (`McpConnection`, `McpServers`) are on the
 * hub's main door.
 *
 * @module
 */

// What a connection takes and gives (the connection itself is on the main door).
export type { McpCallResult, McpConnectOptions, McpFailure } from "./connection.ts";

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

// The servers of a process (the hub, a chat) and how their tools read as the agent's.
export type { McpServersOptions, McpServerStatus, McpState } from "./servers.ts";
export { definitionTokens, MAX_RESULT_CHARS, modelToolName, resultText } from "./tool_text.ts";
export type { McpCaller } from "./tools.ts";

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

// The sentences the dashboard's MCP routes answer with, and how `agent mcp` writes a
// number (a start-up time) in the owner's language.
export { mcpSentence } from "./_messages.ts";
export { withSeparators } from "../spend/usd_format.ts";

// The sandbox (`sandbox = true` and the shell tool): where bubblewrap is, its arguments,
// a child run with a time and an output limit.
export {
  findBwrap,
  type LimitedRun,
  runLimited,
  type RunLimitedOptions,
  sandboxArgs,
  type SandboxBind,
  type SandboxOptions,
} from "../sandbox/mod.ts";
