/**
 * The desks a job's turns run on: one offering no tools and one offering the tier-1
 * tools only, made when first needed. A tier-2 tool is never offered to a job, and
 * its conversations refuse any approval besides (`approvals: "deny"`).
 *
 * @module
 */
import { Desk, type DeskOptions } from "../desk/mod.ts";
import type { JobTools } from "./definition.ts";

/** The desk of each tools setting, sharing everything else (the router, the ledger). */
export function jobDesks(
  options: DeskOptions,
): { desk(tools: JobTools): Desk; close(): Promise<void> } {
  const desks = new Map<JobTools, Desk>();
  return {
    desk(tools) {
      let desk = desks.get(tools);
      if (desk === undefined) {
        desk = new Desk({
          ...options,
          tools: tools === "tier1" ? options.tools.filter((tool) => tool.tier === 1) : [],
          // A job has no one to tell a budget warning in its conversation.
          budgetNotices: () => Promise.resolve([]),
        });
        desks.set(tools, desk);
      }
      return desk;
    },
    async close() {
      await Promise.all([...desks.values()].map((desk) => desk.close()));
    },
  };
}
