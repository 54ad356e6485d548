/**
 * The MCP parts that load the SDK: one connection to a server and the servers of a
 * process. The hub's main door offers them; the light door `@agent/hub/mcp` does not.
 *
 * @module
 */
export { type McpCloseOptions, McpConnection, McpServerError } from "./connection.ts";
export { McpServers } from "./servers.ts";
