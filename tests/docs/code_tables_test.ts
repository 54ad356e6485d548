/**
 * Tables that live in code, checked against the docs that restate them (issue 39): the
 * slash commands (`docs/chat.md`), the owner events (`docs/hub.md`), the keys of
 * `agent.toml` (`docs/configuration.md`) and the `--by` values of `agent spend` (every
 * page that lists them). A row added to either side alone fails here, naming it.
 */
import assert from "node:assert/strict";
import { appCommands, commandTable, configKeys, OWNER_EVENT_FIELDS } from "@agent/hub";
import { SPEND_BY } from "@agent/hub/money";
import { tableCells } from "./tables.ts";
import { proseLines } from "./_markdown.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

function read(file: string): string {
  return Deno.readTextFileSync(`${ROOT}${file}`);
}

/** The body rows (cells) of the first table after the heading `heading` in `markdown`. */
function tableAfter(markdown: string, heading: string): string[][] {
  const lines = proseLines(markdown);
  const start = lines.findIndex((l) => l.text.trim() === heading);
  assert.ok(start >= 0, `no heading '${heading}'`);
  const rows: string[][] = [];
  let seen = false;
  for (const { text } of lines.slice(start + 1)) {
    if (/^#{1,6} /.test(text)) break;
    if (text.trimStart().startsWith("|")) {
      seen = true;
      rows.push(tableCells(text));
    } else if (seen) break;
  }
  assert.ok(rows.length > 2, `no table under '${heading}'`);
  return rows.slice(2);
}

/** The inline code spans of a cell, `\|` read as `|`. */
function codes(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replaceAll("\\|", "|"));
}

/** `cell` without its parenthesised asides (nested ones too). */
function outsideParens(cell: string): string {
  let depth = 0;
  let out = "";
  for (const ch of cell) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/**
 * The keys a "Keys" cell names: the code spans that open the cell or follow a `,` or a
 * `;` outside parentheses (`` `name`, `auto_reply` (true) ``), not the values and
 * examples in between.
 */
function keysOf(cell: string): string[] {
  const items = outsideParens(cell).split(/[,;]/);
  return items.map((item) => item.trim().match(/^`([a-z_0-9]+)`/)?.[1])
    .filter((k): k is string => k !== undefined);
}

Deno.test("docs/chat.md's slash command table lists the desk's commands, no more, no fewer", () => {
  const documented = tableAfter(read("docs/chat.md"), "### Slash commands")
    .map(([command]) => codes(command!).join(" "));
  const code = commandTable(appCommands()).map((c) => [c.usage, ...(c.aliases ?? [])].join(" "));
  assert.deepEqual(documented.toSorted(), code.toSorted());
});

Deno.test("docs/hub.md's owner event table names every event type and its fields", () => {
  const documented: Record<string, string[]> = {};
  for (const [types, fields] of tableAfter(read("docs/hub.md"), "## Owner events")) {
    const names = codes(outsideParens(fields!).split(":")[0]!)
      .flatMap((c) => c.split(",").map((f) => f.trim()));
    for (const type of codes(types!)) documented[type] = names;
  }
  const code = Object.fromEntries(
    Object.entries(OWNER_EVENT_FIELDS).map(([type, fields]) => [type, [...fields]]),
  );
  assert.deepEqual(documented, code);
});

Deno.test("docs/configuration.md's tables name every key of agent.toml and no other", () => {
  const markdown = read("docs/configuration.md");
  const tables: Record<string, string[]> = {};
  for (const [table, keys] of tableAfter(markdown, "## Other tables")) {
    tables[codes(table!)[0]!.replace(/^\[|\]$/g, "")] = keysOf(keys!).toSorted();
  }
  // A table within a table (`[tools.shell]`, `[mcp.servers.<name>]`) has a row of its own
  // where the docs give it one; otherwise it is a key of its parent's row.
  const code: Record<string, string[]> = {};
  const walk = (path: string[]) => {
    const keys: string[] = [];
    for (const key of configKeys(path)!) {
      const named = configKeys([...path, key]) === undefined &&
        configKeys([...path, key, "<name>"]) !== undefined;
      const sub = named ? [...path, key, "<name>"] : [...path, key];
      if (configKeys(sub) !== undefined && sub.join(".") in tables) walk(sub);
      else keys.push(key);
    }
    if (keys.length > 0 || path.join(".") in tables) code[path.join(".")] = keys.toSorted();
  };
  for (const table of configKeys([])!.filter((t) => t !== "models")) walk([table]);
  assert.deepEqual(tables, code);
  const roleKeys = tableAfter(markdown, "## Roles: `[models.roles.<role>]`")
    .map(([key]) => codes(key!)[0]!);
  assert.deepEqual(roleKeys, configKeys(["models", "roles", "brain"]));
});

Deno.test("every --by list in the docs names exactly agent spend's breakdowns", () => {
  const lists: string[] = [];
  for (const file of ["README.md", "docs/commands.md", "docs/spend.md", "docs/hub.md"]) {
    const text = read(file).replaceAll("\\|", "|");
    for (const m of text.matchAll(/(?:--by |\/spend\?by=)([a-z]+(?:\|[a-z]+)+)/g)) {
      lists.push(`${file}: ${m[1]}`);
    }
  }
  assert.ok(lists.length >= 3, lists.join("\n"));
  const want = [...SPEND_BY].sort().join("|");
  const wrong = lists.filter((l) => l.split(": ")[1]!.split("|").sort().join("|") !== want);
  assert.deepEqual(wrong, [], `each must be ${SPEND_BY.join("|")}`);
});

Deno.test("keysOf() takes the keys of a cell, not the values beside them", () => {
  assert.deepEqual(
    keysOf('`name`, `digest` (`"batched"`, `"off"`), `link` (`auto`); `universe` (`""` = off)'),
    ["name", "digest", "link", "universe"],
  );
  assert.deepEqual(keysOf("`modules`: extra, each exporting `manifest`; `disabled`: names"), [
    "modules",
    "disabled",
  ]);
});
