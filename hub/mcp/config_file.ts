/**
 * A server's table in `agent.toml`, added or removed as text: every other line
 * (comments, order, the owner's own edits) stays as it was, and the result is parsed
 * before it is written, so `agent mcp add|remove` never leaves a file the agent cannot
 * read.
 *
 * @module
 */
import type { McpServerConfig } from "../config/mod.ts";

/** What `agent mcp add` writes of a server: how to reach it. */
export type ServerSpec = Pick<McpServerConfig, "command" | "url"> & { args?: string[] };

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;

/**
 * `text` with `[mcp.servers.<name>]` appended for `spec`.
 *
 * @example
 * ```ts
 * import { addServerTable } from "./config_file.ts";
 * const out = addServerTable("[ui]\nlang = \"en\"\n", "fs", { command: "npx", args: ["-y", "x"] });
 * if (!out.endsWith('[mcp.servers.fs]\ncommand = "npx"\nargs = ["-y","x"]\n')) throw new Error(out);
 * ```
 */
export function addServerTable(text: string, name: string, spec: ServerSpec): string {
  const lines = [`[mcp.servers.${name}]`];
  if (spec.command !== undefined) lines.push(`command = ${JSON.stringify(spec.command)}`);
  if (spec.args !== undefined && spec.args.length > 0) {
    lines.push(`args = ${JSON.stringify(spec.args)}`);
  }
  if (spec.url !== undefined) lines.push(`url = ${JSON.stringify(spec.url)}`);
  const base = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  return `${base}${base === "" ? "" : "\n"}${lines.join("\n")}\n`;
}

/**
 * `text` without the tables of server `name` (`[mcp.servers.<name>]` and its sub-tables
 * such as `[mcp.servers.<name>.tiers]`), with the comment lines right above them.
 *
 * @example
 * ```ts
 * import { removeServerTable } from "./config_file.ts";
 * const text = '[ui]\n\n# files\n[mcp.servers.fs]\ncommand = "x"\n[mcp.servers.fs.tiers]\na = 1\n\n[hub]\nport = 1\n';
 * const out = removeServerTable(text, "fs");
 * if (out !== "[ui]\n\n[hub]\nport = 1\n") throw new Error(JSON.stringify(out));
 * ```
 */
export function removeServerTable(text: string, name: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let dropping = false;
  for (const line of lines) {
    const path = tablePath(line);
    if (path !== undefined) {
      const was = dropping;
      dropping = isServerTable(path, name);
      if (was && !dropping && out.length > 0 && out.at(-1) !== "") out.push("");
      if (dropping) {
        // Comments and blank lines right above the table belong to it.
        while (out.length > 0 && /^\s*(#.*)?$/.test(out.at(-1)!)) out.pop();
        continue;
      }
    }
    if (!dropping) out.push(line);
  }
  const joined = out.join("\n");
  return joined.endsWith("\n") || joined === "" ? joined : `${joined}\n`;
}

/**
 * Whether `text` has a `[mcp.servers.<name>]` table (or one of its sub-tables): a look
 * at the headers, without the parser. A server written another way (an inline table)
 * is found only by parsing.
 *
 * @example
 * ```ts
 * import { hasServerTable } from "./config_file.ts";
 * if (!hasServerTable('[mcp.servers."fs".tiers]\na = 1\n', "fs")) throw new Error();
 * if (hasServerTable("[mcp.servers.fs2]\n", "fs")) throw new Error();
 * ```
 */
export function hasServerTable(text: string, name: string): boolean {
  return text.split("\n").some((line) => {
    const path = tablePath(line);
    return path !== undefined && isServerTable(path, name);
  });
}

/** The dotted path of a table header line (`[a.b]`, `[[a.b]]`, quotes and spaces gone). */
function tablePath(line: string): string | undefined {
  const header = HEADER.exec(line);
  return header === null ? undefined : header[1]!.replace(/\s+/g, "").replace(/"/g, "");
}

function isServerTable(path: string, name: string): boolean {
  return path === `mcp.servers.${name}` || path.startsWith(`mcp.servers.${name}.`);
}
