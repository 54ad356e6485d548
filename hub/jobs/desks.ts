/**
 * The desks a job's turns run on: one offering no tools and one offering the tier-1
 * tools only, made when first needed. A tier-2 tool is never offered to a job, and
 * its conversations refuse any approval besides (`approvals: "deny"`). An MCP server's
 * tool is offered only to a job whose file lists it (or its server) in `mcp`, and only
 * when the owner lowered it to tier 1.
 *
 * @module
 */
import { Desk, type DeskOptions } from "../desk/mod.ts";
import type { AgentTool } from "../tools/mod.ts";
import type { JobTools } from "./definition.ts";

/** The desk of each tools setting, sharing everything else (the router, the ledger). */
export function jobDesks(
  options: DeskOptions,
): { desk(tools: JobTools, mcp?: readonly string[]): Desk; close(): Promise<void> } {
  const desks = new Map<string, Desk>();
  return {
    desk(tools, mcp = []) {
      const key = `${tools}|${[...mcp].sort().join(",")}`;
      let desk = desks.get(key);
      if (desk === undefined) {
        desk = new Desk({
          ...options,
          tools: options.tools.filter((tool) => jobMayUse(tool, tools, mcp)),
          // A job is the owner's: its memories are recalled; its memory tools follow its
          // tools (never forget, which would wait for an owner no one asks).
          memoryTools: tools === "tier1" ? "tier1" : "none",
          // A job has no one to tell a budget warning in its conversation.
          budgetNotices: () => Promise.resolve([]),
        });
        desks.set(key, desk);
      }
      return desk;
    },
    async close() {
      await Promise.all([...desks.values()].map((desk) => desk.close()));
    },
  };
}

/** Whether a job with these settings is offered `tool`. */
export function jobMayUse(tool: AgentTool, tools: JobTools, mcp: readonly string[]): boolean {
  if (tool.tier !== 1) return false;
  if (tool.origin === undefined) return tools === "tier1";
  return mcp.includes(tool.name) || mcp.includes(tool.origin.server);
}
