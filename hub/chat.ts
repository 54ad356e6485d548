/**
 * The terminal chat: the light door `@agent/hub/chat` for `agent chat`. Through the
 * whole-hub door a one-line chat loaded every module of the hub (the dashboard, the
 * network service, the job scheduler, the channels); through this one it loads the
 * checks first (the session store, the role's credentials), and the desk, the call chain
 * and what a turn uses only once they passed: a refused `--role` or `--session` is one
 * sentence without them. Each export comes from the file that defines it, not from its
 * folder's `mod.ts`, which would load the folder.
 *
 * The door names every export: what `agent chat` uses.
 *
 * @module
 */

// The conversation on a terminal or a pipe.
export { type ChatOptions, runChat } from "./app/terminal_chat.ts";
export { PipedInput, TerminalInput } from "./terminal/input.ts";

// What a chat turn is given: the ledger, the tools of the registry, the MCP servers.
export { Ledger } from "./ledger/ledger.ts";
export { enabledTools } from "./tools/enabled.ts";
export { loadComponents } from "./app/components.ts";
export { type StartMcpOptions, startMcpServers } from "./app/mcp_servers.ts";

// A read-only home is one sentence before anything opens.
export { unwritableHome } from "./daemon/writable.ts";
