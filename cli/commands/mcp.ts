/**
 * `agent mcp add NAME -- COMMAND ARGS… | add NAME --url URL | list [--json] | show NAME |
 * test NAME [TOOL JSON] | pin NAME [--yes] | remove NAME`: the MCP servers the owner
 * plugs in. Only the owner adds or pins a server (this command and the dashboard's
 * Settings); `add` starts the server, lists its tools and pins that list, and a server
 * whose list changes later is off until `pin` (which shows what changed) is run.
 *
 * @module
 */
import type { CommandModule, PlainArgs } from "../command.ts";
import { UsageError } from "../command.ts";
import { catalogue, formatTime, type Lang } from "@agent/hub/base";
import type { CommandContext } from "../context.ts";

const t = catalogue({
  summary: "MCP servers: add, list, show, test, pin, remove.",
  h_add: "add a server: 'add NAME -- COMMAND ARGS…' (stdio) or 'add NAME --url URL'",
  h_list: "the servers, how each is reached and whether its tools are pinned",
  h_show: "a server's tools: tier, description and what each costs in every request",
  h_test: "start a server and list its tools, or call TOOL with JSON arguments",
  h_pin: "pin what a server lists now, after showing what changed",
  h_remove: "remove a server from agent.toml (and its pin)",
  o_url: "the address of a Streamable HTTP server",
  o_json: "print JSON",
  o_yes: "pin without asking",
  unknown: "Unknown mcp command '{sub}' (add, list, show, test, pin, remove).",
  needs_name: "'agent mcp {sub}' needs a server name.",
  bad_json: "The arguments must be a JSON object, not '{text}'.",
  added:
    'Added the MCP server {name}: {count}, pinned (started and listed in {seconds} s). Each is tier 2 (asked every time); lower one by name with tiers = { "TOOL" = 1 } in [mcp.servers.{name}].',
  none: "No MCP server yet; 'agent mcp add NAME -- COMMAND ARGS…' adds one.",
  head: "NAME  TRANSPORT  STATE  TOOLS  TARGET",
  tools_word: "{n} tools",
  tool_word: "1 tool",
  show_head: "{name} ({transport}, {state}): {count}, about {tokens} tokens of definitions.",
  show_tool: "  {tool}  tier {tier}  ~{tokens} tokens  {description}",
  show_off: "  {tool}  not offered (not in 'tools')",
  show_pinned: "Pinned {when}.",
  show_changed: "Its tools changed since (seen {when}); 'agent mcp pin {name}' shows what changed.",
  show_turns:
    "Tool definitions sent per turn, last {turns} turns: {avg} tokens on average, {max} at most.",
  show_no_pin: "Not pinned: 'agent mcp pin {name}' lists and pins its tools.",
  tested: "The MCP server {name} started and listed {count} in {seconds} s:",
  result_error: "The tool answered with an error:",
  unchanged: "The MCP server {name} lists the same tools as its pin; nothing to pin.",
  changes: "What the MCP server {name} lists now, against its pin:",
  added_tool: "  + {tool}: {description}",
  removed_tool: "  - {tool}",
  changed_tool: "  ~ {tool}",
  before: "      before: {text}",
  after: "      now:    {text}",
  ask: "Pin this list? [y/N] ",
  not_pinned: "Not pinned. Run 'agent mcp pin {name} --yes' to pin it.",
  pinned: "Pinned the MCP server {name}: {count}; it is on again.",
  removed: "Removed the MCP server {name} and its pin (its folder {folder} stays).",
  state_pinned: "pinned",
  state_changed: "changed",
  state_unpinned: "not pinned",
}, {
  summary: "MCP sunucuları: ekle, listele, göster, dene, sabitle, kaldır.",
  h_add: "bir sunucu ekler: 'add AD -- KOMUT ARGÜMANLAR…' (stdio) ya da 'add AD --url URL'",
  h_list: "sunucular, her birine nasıl ulaşıldığı ve araçlarının sabitlenip sabitlenmediği",
  h_show: "bir sunucunun araçları: düzey, açıklama ve her birinin her istekteki maliyeti",
  h_test: "bir sunucuyu başlatır ve araçlarını listeler, ya da ARACI JSON argümanlarla çağırır",
  h_pin: "bir sunucunun şimdi listelediğini, neyin değiştiğini gösterdikten sonra sabitler",
  h_remove: "bir sunucuyu agent.toml'dan (ve sabitini) kaldırır",
  o_url: "bir Streamable HTTP sunucusunun adresi",
  o_json: "JSON yazar",
  o_yes: "sormadan sabitler",
  unknown: "Bilinmeyen mcp komutu '{sub}' (add, list, show, test, pin, remove).",
  needs_name: "'agent mcp {sub}' bir sunucu adı ister.",
  bad_json: "Argümanlar bir JSON nesnesi olmalı, '{text}' değil.",
  added:
    'MCP sunucusu {name} eklendi: {count}, sabitlendi ({seconds} sn\'de başladı ve listeledi). Her biri 2. düzeyde (her seferinde sorulur); birini [mcp.servers.{name}] içinde tiers = { "ARAÇ" = 1 } ile adıyla düşürün.',
  none: "Henüz MCP sunucusu yok; 'agent mcp add AD -- KOMUT ARGÜMANLAR…' bir tane ekler.",
  head: "AD  BAĞLANTI  DURUM  ARAÇLAR  HEDEF",
  tools_word: "{n} araç",
  tool_word: "1 araç",
  show_head: "{name} ({transport}, {state}): {count}, tanımları yaklaşık {tokens} token.",
  show_tool: "  {tool}  düzey {tier}  ~{tokens} token  {description}",
  show_off: "  {tool}  sunulmuyor ('tools' içinde değil)",
  show_pinned: "{when} tarihinde sabitlendi.",
  show_changed:
    "Araçları o zamandan beri değişti ({when} görüldü); 'agent mcp pin {name}' neyin değiştiğini gösterir.",
  show_turns:
    "Tur başına gönderilen araç tanımları, son {turns} tur: ortalama {avg} token, en çok {max}.",
  show_no_pin: "Sabitlenmedi: 'agent mcp pin {name}' araçlarını listeler ve sabitler.",
  tested: "MCP sunucusu {name} başladı ve {seconds} sn'de {count} listeledi:",
  result_error: "Araç bir hatayla yanıt verdi:",
  unchanged: "MCP sunucusu {name} sabitiyle aynı araçları listeliyor; sabitlenecek bir şey yok.",
  changes: "MCP sunucusu {name} şimdi şunları listeliyor, sabitine göre:",
  added_tool: "  + {tool}: {description}",
  removed_tool: "  - {tool}",
  changed_tool: "  ~ {tool}",
  before: "      önce:  {text}",
  after: "      şimdi: {text}",
  ask: "Bu liste sabitlensin mi? [e/H] ",
  not_pinned: "Sabitlenmedi. Sabitlemek için 'agent mcp pin {name} --yes' çalıştırın.",
  pinned: "MCP sunucusu {name} sabitlendi: {count}; yeniden açık.",
  removed: "MCP sunucusu {name} ve sabiti kaldırıldı (klasörü {folder} yerinde duruyor).",
  state_pinned: "sabitlendi",
  state_changed: "değişti",
  state_unpinned: "sabitlenmedi",
});

/** `agent mcp`. */
export const command: CommandModule = {
  name: "mcp",
  summary: { en: t("en", "summary"), tr: t("tr", "summary") },
  configure(cmd, lang) {
    const d = (key: Parameters<typeof t>[1]) => t(lang, key);
    cmd.command("add").description(d("h_add")).argument("<name>").argument("[command...]")
      .option("--url <url>", d("o_url"));
    cmd.command("list").description(d("h_list")).option("--json", d("o_json"));
    cmd.command("show").description(d("h_show")).argument("<name>").option("--json", d("o_json"));
    cmd.command("test").description(d("h_test")).argument("<name>").argument("[tool]")
      .argument("[json]");
    cmd.command("pin").description(d("h_pin")).argument("<name>").option("--yes", d("o_yes"));
    cmd.command("remove").description(d("h_remove")).argument("<name>");
  },
  plainArgs: plainMcpArgs,
  async run(ctx, args, opts) {
    const [sub = "list", name, ...rest] = args;
    const lang = ctx.lang;
    const mcp = await import("@agent/hub/mcp");
    // bubblewrap is looked up only when a server with `sandbox = true` starts.
    const manage = { paths: ctx.paths, env: ctx.env, lang };
    if (sub !== "list" && name === undefined) throw new UsageError(t(lang, "needs_name", { sub }));
    switch (sub) {
      case "add": {
        const url = typeof opts.url === "string" ? opts.url : undefined;
        const [program, ...programArgs] = rest.flat();
        const added = await mcp.addServer(manage, name!, {
          ...(program !== undefined ? { command: program, args: programArgs } : {}),
          ...(url !== undefined ? { url } : {}),
        });
        ctx.out(t(lang, "added", {
          name: added.name,
          count: count(lang, added.tools.length),
          seconds: mcp.withSeparators((added.startMs / 1000).toFixed(1), lang),
        }));
        return 0;
      }
      case "list": {
        const lines = await mcp.listServers(await ctx.config(), ctx.paths);
        if (opts.json === true) {
          ctx.out(JSON.stringify(lines, null, 2));
          return 0;
        }
        if (lines.length === 0) {
          ctx.out(t(lang, "none"));
          return 0;
        }
        const rows = [
          t(lang, "head").split("  "),
          ...lines.map((l) => [
            l.name,
            l.transport + (l.sandbox ? "+bwrap" : ""),
            t(lang, `state_${l.state}`),
            String(l.tools),
            l.target,
          ]),
        ];
        for (const row of columns(rows)) ctx.out(row);
        return 0;
      }
      case "show":
        return await show(ctx, name!, opts.json === true);
      case "test": {
        const [tool, json] = rest;
        let call: { tool: string; args: unknown } | undefined;
        if (tool !== undefined) {
          let parsed: unknown = {};
          try {
            parsed = json === undefined ? {} : JSON.parse(json);
          } catch { /* told below */ }
          if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
            throw new UsageError(t(lang, "bad_json", { text: json ?? "" }));
          }
          call = { tool, args: parsed };
        }
        const tested = await mcp.testServer(manage, name!, call);
        if (tested.result !== undefined) {
          if (tested.isError) ctx.out(t(lang, "result_error"));
          ctx.out(tested.result);
          return tested.isError ? 1 : 0;
        }
        ctx.out(t(lang, "tested", {
          name: name!,
          count: count(lang, tested.tools.length),
          seconds: mcp.withSeparators((tested.startMs / 1000).toFixed(1), lang),
        }));
        for (const tool of tested.tools) ctx.out(`  ${tool.name}: ${shortText(tool.description)}`);
        return 0;
      }
      case "pin": {
        const now = await mcp.serverChanges(manage, name!);
        if (now.pinned && now.changes.length === 0) {
          ctx.out(t(lang, "unchanged", { name: name! }));
          return 0;
        }
        ctx.out(t(lang, "changes", { name: name! }));
        for (const change of now.changes) {
          if (change.kind === "added") {
            ctx.out(t(lang, "added_tool", {
              tool: change.tool.name,
              description: shortText(change.tool.description),
            }));
          } else if (change.kind === "removed") {
            ctx.out(t(lang, "removed_tool", { tool: change.tool.name }));
          } else {
            ctx.out(t(lang, "changed_tool", { tool: change.name }));
            const [before, after] = [change.before, change.after].map((x) =>
              x.description === change.before.description &&
                x.description === change.after.description
                ? JSON.stringify(x.inputSchema)
                : x.description
            );
            ctx.out(t(lang, "before", { text: shortText(before!, 200) }));
            ctx.out(t(lang, "after", { text: shortText(after!, 200) }));
          }
        }
        if (opts.yes !== true && !(await confirm(t(lang, "ask")))) {
          ctx.out(t(lang, "not_pinned", { name: name! }));
          return 1;
        }
        const pinned = await mcp.pinServer(manage, name!, now);
        ctx.out(t(lang, "pinned", { name: name!, count: count(lang, pinned.tools.length) }));
        return 0;
      }
      case "remove":
        await mcp.removeServer(manage, name!);
        ctx.out(t(lang, "removed", { name: name!, folder: `${ctx.paths.dataDir}/mcp/${name}` }));
        return 0;
      default:
        throw new UsageError(t(lang, "unknown", { sub }));
    }
  },
};

/**
 * The forms of `agent mcp` the owner types most, read without commander: `list`,
 * `list --json`, `add NAME -- COMMAND ARGS…` and `add NAME --url URL`. Anything else
 * (help, other subcommands, another spelling) is commander's.
 */
export function plainMcpArgs(words: readonly string[]): PlainArgs | undefined {
  const [sub, ...rest] = words;
  if (sub === "list") {
    if (rest.length === 0) return { args: ["list"], opts: {} };
    if (rest.length === 1 && rest[0] === "--json") return { args: ["list"], opts: { json: true } };
    return undefined;
  }
  if (sub !== "add") return undefined;
  const [name, marker, ...after] = rest;
  if (name === undefined || name.startsWith("-")) return undefined;
  if (marker === "--" && after.length > 0) return { args: ["add", name, ...after], opts: {} };
  const url = after[0];
  if (marker === "--url" && after.length === 1 && !url!.startsWith("-")) {
    return { args: ["add", name], opts: { url: url! } };
  }
  return undefined;
}

/** `agent mcp show NAME`: the pinned tools, their tiers and token costs, the turns' cost. */
async function show(ctx: CommandContext, name: string, json: boolean): Promise<number> {
  const lang = ctx.lang;
  const mcp = await import("@agent/hub/mcp");
  const server = await mcp.configured({ paths: ctx.paths, env: ctx.env, lang }, name);
  const pin = (await new mcp.PinStore(ctx.paths.dataDir).read())[name];
  const listed = pin?.tools ?? [];
  const offered = server.tools === undefined
    ? listed
    : listed.filter((tool) => server.tools!.includes(tool.name));
  const rows = listed.map((tool) => ({
    name: tool.name,
    model_name: mcp.modelToolName(name, tool.name),
    tier: server.tiers[tool.name] === 1 ? 1 : 2,
    offered: offered.includes(tool),
    tokens: mcp.definitionTokens(name, tool),
    description: tool.description,
  }));
  const tokens = rows.filter((r) => r.offered).reduce((n, r) => n + r.tokens, 0);
  const turns = await definitionTurns(ctx);
  if (json) {
    ctx.out(JSON.stringify(
      {
        name,
        transport: server.url !== undefined ? "http" : "stdio",
        state: pin === undefined ? "unpinned" : pin.changed !== undefined ? "changed" : "pinned",
        pinned_at: pin?.pinned_at ?? null,
        tokens,
        tools: rows,
        turns,
      },
      null,
      2,
    ));
    return 0;
  }
  const state = pin === undefined ? "unpinned" : pin.changed !== undefined ? "changed" : "pinned";
  ctx.out(t(lang, "show_head", {
    name,
    transport: server.url !== undefined ? "http" : "stdio",
    state: t(lang, `state_${state}`),
    count: count(lang, offered.length),
    tokens,
  }));
  for (const row of rows) {
    ctx.out(
      row.offered
        ? t(lang, "show_tool", {
          tool: row.name,
          tier: row.tier,
          tokens: row.tokens,
          description: shortText(row.description),
        })
        : t(lang, "show_off", { tool: row.name }),
    );
  }
  if (pin === undefined) ctx.out(t(lang, "show_no_pin", { name }));
  else {
    ctx.out(t(lang, "show_pinned", { when: formatTime(pin.pinned_at) }));
    if (pin.changed !== undefined) {
      ctx.out(t(lang, "show_changed", { name, when: formatTime(pin.changed.seen_at) }));
    }
  }
  if (turns !== undefined) ctx.out(t(lang, "show_turns", turns));
  return 0;
}

/** What the last turns sent in tool definitions, from the ledger (none: undefined). */
async function definitionTurns(
  ctx: CommandContext,
): Promise<{ turns: number; avg: number; max: number } | undefined> {
  const { Ledger } = await import("@agent/hub/money");
  let ledger;
  try {
    ledger = Ledger.openExisting(ctx.paths.ledgerFile);
  } catch {
    return undefined;
  }
  if (ledger === undefined) return undefined;
  try {
    const rows = ledger.rowsSince(Date.now() - 30 * 86_400_000)
      .filter((r) => (r.purpose ?? "turn") === "turn" && (r.tool_tokens ?? 0) > 0)
      .slice(-50);
    if (rows.length === 0) return undefined;
    const sizes = rows.map((r) => r.tool_tokens ?? 0);
    return {
      turns: rows.length,
      avg: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
      max: Math.max(...sizes),
    };
  } finally {
    ledger.close();
  }
}

function count(lang: Lang, n: number): string {
  return n === 1 ? t(lang, "tool_word") : t(lang, "tools_word", { n });
}

function shortText(text: string, max = 100): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function columns(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd());
}

async function confirm(question: string): Promise<boolean> {
  if (!Deno.stdin.isTerminal()) return false;
  await Deno.stdout.write(new TextEncoder().encode(question));
  const buffer = new Uint8Array(64);
  const n = await Deno.stdin.read(buffer);
  const answer = new TextDecoder().decode(buffer.subarray(0, n ?? 0)).trim().toLowerCase();
  return answer === "y" || answer === "yes" || answer === "e" || answer === "evet";
}
