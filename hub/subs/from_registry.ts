/**
 * Finds the sub-agent directory the way the hub does: the first working entry point
 * of the component group `agent.subs`.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { AgentPaths } from "../paths.ts";
import type { Registry } from "../components/registry.ts";
import type { SubAgentDirectory } from "./directory.ts";
import { errorMessage } from "@agent/net/common";

/** What {@linkcode subAgentDirectoryFrom} found. */
export interface FoundDirectory {
  /** The directory, or `undefined` when no entry point works. */
  directory: SubAgentDirectory | undefined;
  /** The component that gave it. */
  component?: string;
  /** Entry points that failed, with one sentence each, in the order tried. */
  failures: { component: string; detail: string }[];
}

/**
 * Calls the enabled `agent.subs` components in order and returns the first directory
 * that loads and has `public` and `public_subs` methods. Failures are collected, never
 * thrown: a hub without a working entry point answers no sub-agent.
 */
export async function subAgentDirectoryFrom(
  registry: Pick<Registry, "components">,
  options: { config: AgentConfig; paths: AgentPaths },
): Promise<FoundDirectory> {
  const failures: { component: string; detail: string }[] = [];
  for (const c of registry.components) {
    if (c.group !== "agent.subs" || !c.enabled || c.load === undefined) continue;
    try {
      const factory = await c.load();
      if (typeof factory !== "function") throw new TypeError("the entry point is not a factory");
      const directory: unknown = await factory(options.config, options.paths);
      if (!isDirectory(directory)) {
        throw new TypeError("the factory returned no public() and public_subs() methods");
      }
      return { directory, component: c.name, failures };
    } catch (error) {
      const detail = errorMessage(error);
      failures.push({ component: c.name, detail: detail.split("\n")[0] ?? detail });
    }
  }
  return { directory: undefined, failures };
}

function isDirectory(value: unknown): value is SubAgentDirectory {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.public === "function" && typeof v.public_subs === "function";
}
