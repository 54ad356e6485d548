/**
 * Tool definitions that cost what they must. Every request carries the definitions of
 * the tools it offers; peers that send every MCP server's definitions every turn pay
 * tens of thousands of tokens before a word. When all of a turn's definitions would
 * take more than {@linkcode LAZY_SHARE} of the role's `context_tokens`, the tools that
 * can wait (the MCP servers') are held back and the model gets `find_tools` instead:
 * it names what it needs, and the definitions it found are sent from the next step on.
 *
 * @module
 */
import { z } from "zod";
import { estimateTokens, jsonChars } from "../ledger/mod.ts";
import type { ModelTool, ModelTools } from "../tools/mod.ts";
import { toolDefinitions } from "../router/model_prompt.ts";

/** The share of `context_tokens` the definitions may take before they load lazily. */
export const LAZY_SHARE = 0.1;

/** The name of the tool that finds the held-back ones. */
export const FIND_TOOLS = "find_tools";

/** How many tools one `find_tools` call gives at most. */
const FOUND_AT_MOST = 8;

/** The estimated tokens of the definitions of `tools`, as a request carries them. */
export function definitionsTokens(tools: ModelTools): number {
  return Object.keys(tools).length === 0 ? 0 : estimateTokens(jsonChars(toolDefinitions(tools)));
}

/**
 * `tools` as a turn offers them: all of them when their definitions fit in
 * `budgetTokens`; otherwise the ones that cannot wait plus `find_tools`, which adds the
 * held-back tools it finds to the same object (the tool loop reads the definitions
 * again before every step).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { lazyTools } from "./lazy_tools.ts";
 * const tool = (deferrable: boolean) => ({
 *   description: "x".repeat(400), inputSchema: z.object({}), deferrable,
 *   execute: () => Promise.resolve("ok"),
 * });
 * const offered = lazyTools({ a: tool(false), b: tool(true), c: tool(true) }, 200);
 * if (Object.keys(offered).join() !== "a,find_tools") throw new Error(Object.keys(offered).join());
 * ```
 */
export function lazyTools(tools: ModelTools, budgetTokens: number): ModelTools {
  if (definitionsTokens(tools) <= budgetTokens) return tools;
  const offered: ModelTools = {};
  const held = new Map<string, ModelTool>();
  for (const [name, tool] of Object.entries(tools)) {
    if (tool.deferrable === true) held.set(name, tool);
    else offered[name] = tool;
  }
  if (held.size === 0) return tools;
  offered[FIND_TOOLS] = findTools(held, offered);
  return offered;
}

function findTools(held: Map<string, ModelTool>, offered: ModelTools): ModelTool {
  const names = [...held.keys()];
  return {
    description:
      `More tools exist than are listed here (${held.size}, from the owner's MCP servers). Describe what you need in a few words, or give exact tool names; the tools found can be called from your next step on.`,
    inputSchema: z.object({
      query: z.string().max(200).optional().describe("what the tool should do"),
      names: z.array(z.string()).max(FOUND_AT_MOST).optional().describe("exact tool names"),
    }),
    execute(input) {
      const { query = "", names: asked = [] } = input as { query?: string; names?: string[] };
      const exact = asked.filter((name) => held.has(name));
      const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
      const scored = names
        .filter((name) => !exact.includes(name))
        .map((name) => ({ name, score: score(name, held.get(name)!, words) }))
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score);
      const found = [...exact, ...scored.map((s) => s.name)].slice(0, FOUND_AT_MOST);
      for (const name of found) offered[name] = held.get(name)!;
      return Promise.resolve({
        found: found.map((name) => ({ name, description: held.get(name)!.description ?? "" })),
        ...(found.length === 0
          ? {
            note: "Nothing matched; try other words. Some tool names: " +
              names.slice(0, 20).join(", "),
          }
          : { note: "These tools can be called from your next step on." }),
      });
    },
  };
}

/** How well a tool matches the words: each word in its name counts double. */
function score(name: string, tool: ModelTool, words: readonly string[]): number {
  const lowerName = name.toLowerCase();
  const text = (tool.description ?? "").toLowerCase();
  let total = 0;
  for (const word of words) {
    if (lowerName.includes(word)) total += 2;
    if (text.includes(word)) total += 1;
  }
  return total;
}
