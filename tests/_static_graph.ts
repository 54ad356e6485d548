/**
 * The modules a file loads before any of its dynamic imports runs, from `deno info
 * --json`: what the tests of a command's start check (a light door reaches no heavy
 * package). One `deno info` of an entry gives the graph of everything it may load;
 * {@linkcode staticImports} then follows only its static imports from any module in it;
 * {@linkcode packageOf} names the npm package a specifier is part of, whether Deno
 * printed it as `npm:zod@4` or, with a manual `node_modules`, as a file in it.
 *
 * @module
 */
import assert from "node:assert/strict";

/** The module graph `deno info --json` prints for one entry. */
export interface ModuleGraph {
  roots: string[];
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
  }[];
  redirects?: Record<string, string>;
}

const ROOT = new URL("../", import.meta.url).pathname;

/** The graph of `file` (a path, absolute or from the repository's root), dynamic imports included. */
export async function moduleGraph(file: string): Promise<ModuleGraph> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", file],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)) as ModuleGraph;
}

/**
 * Every specifier `from` (a module of `graph`: a specifier, or a path from the
 * repository's root) loads through static imports alone, itself included.
 */
export function staticImports(graph: ModuleGraph, from: string): string[] {
  const start = from.includes(":") ? from : new URL(from, `file://${ROOT}`).href;
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  assert.ok(bySpecifier.has(start), `${from} is not in the graph`);
  const redirects = graph.redirects ?? {};
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length > 0) {
    const specifier = todo.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      const next = dep.code?.specifier;
      if (next !== undefined && dep.isDynamic !== true) todo.push(redirects[next] ?? next);
    }
  }
  return [...seen];
}

/** Every module `file` loads before any dynamic import runs (its own `deno info`). */
export async function staticGraph(file: string): Promise<string[]> {
  const graph = await moduleGraph(file);
  return staticImports(graph, graph.roots[0]!);
}

/**
 * The npm package `specifier` belongs to (`zod`, `@ai-sdk/openai`), or `undefined` for
 * a module of ours: `npm:/zod@4.6.7/...` or `file:///.../node_modules/.deno/zod@4.6.7/
 * node_modules/zod/index.js`, as `deno info` prints it with `nodeModulesDir` manual.
 */
export function packageOf(specifier: string): string | undefined {
  const npm = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@/.exec(specifier);
  if (npm) return npm[1];
  const file = /\/node_modules\/\.deno\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(
    specifier,
  );
  return file?.[1];
}
