/**
 * `agent memory list [--scope S] [--search Q] [--json] | show ID | add TEXT [--scope S]
 * [--pin] | forget ID… | --search Q [--yes] [--redact] | pending | approve ID | reject ID
 * | pin ID | unpin ID | export [--json] | import FILE`: what the agent remembers, read
 * and changed in `<data>/memory.sqlite3` directly (no hub needed; a running hub sees
 * each change at its next turn). `--cloud` works on the cloud brain's memory in the
 * spine (`AGENT_SPINE_URL`, `AGENT_SPINE_TOKEN`).
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import { UsageError } from "../command.ts";
import { plainSubcommandArgs, type PlainTable } from "../_plain_args.ts";
import { catalogue, cloudTarget, type Lang } from "@agent/hub/base";

const t = catalogue({
  summary: "What the agent remembers: list, show, add, forget, approve what waits, export, import.",
  h_list: "list the memories in force and waiting, newest first",
  h_show: "one memory with where it came from",
  h_add: "remember something (in force at once)",
  h_forget: "forget memories for good, by id or by a search",
  h_pending: "what waits for your approval",
  h_approve: "put a waiting memory in force",
  h_reject: "delete a waiting memory",
  h_pin: "recall a memory in every turn of its scope",
  h_unpin: "stop recalling a memory in every turn",
  h_export: "every memory in force as Markdown (or all of them as JSON)",
  h_import: "memories from a Markdown bullet list, such as another agent's MEMORY.md",
  h_consolidate:
    "add the weekly job that merges duplicate and outdated memories (off until added; 'agent jobs remove memory-consolidation' removes it)",
  o_schedule: "when it runs, a cron expression (default '0 3 * * 0': Sundays at 03:00)",
  o_max: "the most one run, and one day, may cost in dollars (default 0.05)",
  o_scope: "owner, person:<id> or conversation:<key>",
  o_search: "memories whose text holds these words",
  o_json: "print JSON",
  o_history: "also the memories others replaced",
  o_pin: "pin it",
  o_kind: "fact, preference, event or instruction (default fact)",
  o_replaces: "the id of a memory in force this one replaces",
  o_yes: "forget what --search matched without asking",
  o_redact: "also clean the text out of the stored conversations",
  o_text: "the text as you edited it",
  o_cloud: "the cloud brain's memory, in the spine (AGENT_SPINE_URL, AGENT_SPINE_TOKEN)",
}, {
  summary:
    "Ajanın hatırladıkları: listele, göster, ekle, unut, bekleyenleri onayla, dışa ve içe aktar.",
  h_list: "geçerli ve bekleyen anıları listeler, en yenisi önce",
  h_show: "bir anıyı nereden geldiğiyle gösterir",
  h_add: "bir şeyi hatırlatır (hemen geçerli)",
  h_forget: "anıları numarayla ya da aramayla kalıcı olarak unutur",
  h_pending: "onayınızı bekleyenler",
  h_approve: "bekleyen bir anıyı geçerli kılar",
  h_reject: "bekleyen bir anıyı siler",
  h_pin: "bir anıyı kapsamındaki her turda hatırlatır",
  h_unpin: "bir anının her turda hatırlanmasını bırakır",
  h_export: "geçerli tüm anılar Markdown olarak (ya da hepsi JSON olarak)",
  h_import: "bir Markdown madde listesinden anılar, ör. başka bir ajanın MEMORY.md'si",
  h_consolidate:
    "yinelenen ve eskimiş anıları birleştiren haftalık görevi ekler (eklenene dek kapalı; 'agent jobs remove memory-consolidation' kaldırır)",
  o_schedule: "ne zaman çalışacağı, bir cron ifadesi (varsayılan '0 3 * * 0': pazar 03:00)",
  o_max: "bir çalışmanın ve bir günün en çok tutabileceği, dolar (varsayılan 0.05)",
  o_scope: "owner, person:<kimlik> ya da conversation:<anahtar>",
  o_search: "metninde bu sözcükler geçen anılar",
  o_json: "JSON yazar",
  o_history: "yerini başkasına bırakmış anılar da",
  o_pin: "sabitler",
  o_kind: "fact, preference, event ya da instruction (varsayılan fact)",
  o_replaces: "bunun yerini aldığı geçerli anının numarası",
  o_yes: "--search ile eşleşenleri sormadan unutur",
  o_redact: "metni kayıtlı konuşmalardan da temizler",
  o_text: "metnin düzenlediğiniz hâli",
  o_cloud: "bulut beyninin anıları, spine'da (AGENT_SPINE_URL, AGENT_SPINE_TOKEN)",
});

type Key = Parameters<typeof t>[1];

/** The `agent memory` subcommands the plain path reads (checked against `configure()`). */
const MEMORY_PLAIN: PlainTable = {
  list: { flags: ["--history", "--json", "--cloud"], options: ["--scope", "--search"] },
  show: { args: ["<id>"], flags: ["--cloud"] },
  add: {
    args: ["<text...>"],
    flags: ["--pin", "--cloud"],
    options: ["--scope", "--kind", "--replaces"],
  },
  forget: { args: ["[ids...]"], flags: ["--yes", "--redact", "--cloud"], options: ["--search"] },
  pending: { flags: ["--json", "--cloud"] },
  approve: { args: ["<id>"], flags: ["--cloud"], options: ["--text"] },
  reject: { args: ["<id>"], flags: ["--cloud"] },
  pin: { args: ["<id>"], flags: ["--cloud"] },
  unpin: { args: ["<id>"], flags: ["--cloud"] },
  export: { flags: ["--json", "--cloud"], options: ["--scope"] },
  import: { args: ["<file>"], flags: ["--cloud"], options: ["--scope"] },
  consolidate: { options: ["--schedule", "--max-usd"] },
};

/** `agent memory`. */
export const command: CommandModule = {
  name: "memory",
  summary: { en: t("en", "summary"), tr: t("tr", "summary") },
  configure(cmd, lang) {
    const d = (key: Key) => t(lang, key);
    const cloud = (c: ReturnType<typeof cmd.command>) => c.option("--cloud", d("o_cloud"));
    cloud(
      cmd.command("list").description(d("h_list")).option("--scope <scope>", d("o_scope"))
        .option("--search <words>", d("o_search")).option("--history", d("o_history"))
        .option("--json", d("o_json")),
    );
    cloud(cmd.command("show").description(d("h_show")).argument("<id>"));
    cloud(
      cmd.command("add").description(d("h_add")).argument("<text...>")
        .option("--scope <scope>", d("o_scope")).option("--pin", d("o_pin"))
        .option("--kind <kind>", d("o_kind")).option("--replaces <id>", d("o_replaces")),
    );
    cloud(
      cmd.command("forget").description(d("h_forget")).argument("[ids...]")
        .option("--search <words>", d("o_search")).option("--yes", d("o_yes"))
        .option("--redact", d("o_redact")),
    );
    cloud(cmd.command("pending").description(d("h_pending")).option("--json", d("o_json")));
    cloud(
      cmd.command("approve").description(d("h_approve")).argument("<id>")
        .option("--text <text>", d("o_text")),
    );
    cloud(cmd.command("reject").description(d("h_reject")).argument("<id>"));
    cloud(cmd.command("pin").description(d("h_pin")).argument("<id>"));
    cloud(cmd.command("unpin").description(d("h_unpin")).argument("<id>"));
    cloud(
      cmd.command("export").description(d("h_export")).option("--json", d("o_json"))
        .option("--scope <scope>", d("o_scope")),
    );
    cloud(
      cmd.command("import").description(d("h_import")).argument("<file>")
        .option("--scope <scope>", d("o_scope")),
    );
    cmd.command("consolidate").description(d("h_consolidate"))
      .option("--schedule <cron>", d("o_schedule")).option("--max-usd <usd>", d("o_max"));
  },
  // `agent memory list` and the like (the tests run them dozens of times) skip commander.
  plainArgs: (words) => plainSubcommandArgs(words, MEMORY_PLAIN),
  async run(ctx, args, opts) {
    const [sub = "list", ...rest] = args;
    const lang = ctx.lang;
    const memory = await import("@agent/hub/memory");
    if (sub === "consolidate") return await consolidate(ctx, opts, memory);
    const str = (key: string) => typeof opts[key] === "string" ? opts[key] as string : undefined;
    let store;
    if (opts.cloud === true) {
      const { url, token } = cloudTarget(ctx.env, lang);
      store = new memory.SpineMemoryStore(url, token, { lang });
    } else {
      store = new memory.SqliteMemoryStore(ctx.paths.memoryFile, {
        lang,
        warn: (line) => ctx.logger.warn(line),
      });
    }
    const desk = {
      store,
      lang,
      filter: "every" as const,
      sessionsDir: opts.cloud === true ? undefined : ctx.paths.sessionsDir,
      columns: Deno.stdout.isTerminal() ? Deno.consoleSize().columns : undefined,
    };
    const print = (lines: readonly string[]) => {
      for (const line of lines) ctx.out(line);
    };
    try {
      switch (sub) {
        case "list":
          print(
            await memory.listMemories(desk, {
              scope: str("scope"),
              search: str("search"),
              json: opts.json === true,
              history: opts.history === true,
            }),
          );
          return 0;
        case "show":
          print(await memory.showMemory(desk, await need(rest[0], sub, lang)));
          return 0;
        case "add": {
          const text = rest.join(" ");
          if (text.trim() === "") throw new UsageError(memory.memorySentence(lang, "needs_text"));
          const replaces = str("replaces");
          const added = await memory.addMemory(desk, text, {
            scope: str("scope"),
            kind: str("kind"),
            pin: opts.pin === true,
            replaces,
          });
          const old = replaces === undefined ? undefined : memory.parseId(replaces, lang);
          ctx.out(memory.addedLine(added, lang, old));
          return 0;
        }
        case "forget": {
          const outcome = await memory.forgetMemories(desk, rest, {
            search: str("search"),
            yes: opts.yes === true,
            redact: opts.redact === true,
          });
          print(outcome.lines);
          return outcome.exitCode;
        }
        case "pending":
          print(await memory.pendingMemories(desk, opts.json === true));
          return 0;
        case "approve":
          ctx.out(await memory.approveMemory(desk, await need(rest[0], sub, lang), str("text")));
          return 0;
        case "reject":
          ctx.out(await memory.rejectMemory(desk, await need(rest[0], sub, lang)));
          return 0;
        case "pin":
        case "unpin":
          ctx.out(await memory.pinMemory(desk, await need(rest[0], sub, lang), sub === "pin"));
          return 0;
        case "export":
          ctx.out((await memory.exportMemories(desk, {
            json: opts.json === true,
            ...(str("scope") === undefined ? {} : { scope: str("scope")! }),
          })).replace(/\n$/, ""));
          return 0;
        case "import": {
          const file = rest[0];
          if (file === undefined) throw new UsageError(memory.memorySentence(lang, "needs_file"));
          ctx.out(await memory.importMemories(desk, file, { scope: str("scope") }));
          return 0;
        }
        default:
          throw new UsageError(memory.memorySentence(lang, "unknown_sub", { sub }));
      }
    } finally {
      store.close();
    }
  },
};

/** `agent memory consolidate`: the job file, through `agent jobs add`'s checks and estimate. */
async function consolidate(
  ctx: Parameters<CommandModule["run"]>[0],
  opts: Record<string, unknown>,
  memory: typeof import("@agent/hub/memory"),
): Promise<number> {
  const jobs = await import("@agent/hub/jobs");
  const raw = typeof opts.maxUsd === "string" ? opts.maxUsd : undefined;
  const usd = raw === undefined
    ? memory.CONSOLIDATION_MAX_USD
    : jobs.parseUsd(raw, ctx.lang) ?? Number.NaN;
  if (!Number.isFinite(usd) || usd <= 0) {
    throw new UsageError(memory.memorySentence(ctx.lang, "bad_usd", { value: raw ?? "" }));
  }
  const lines = await jobs.addJob(
    { paths: ctx.paths, config: await ctx.config(), lang: ctx.lang, env: ctx.env },
    {
      name: memory.CONSOLIDATION_JOB,
      schedule: typeof opts.schedule === "string" ? opts.schedule : memory.CONSOLIDATION_SCHEDULE,
      prompt: memory.CONSOLIDATION_PROMPT,
      role: memory.MEMORY_ROLE,
      tools: "tier1",
      deliver: "events",
      max_usd_per_run: usd,
      max_usd_per_day: usd,
    },
  );
  for (const line of lines) ctx.out(line);
  return 0;
}

/** The id argument of `sub`, or a usage error. */
async function need(value: string | undefined, sub: string, lang: Lang): Promise<string> {
  if (value !== undefined) return value;
  const { memorySentence } = await import("@agent/hub/memory");
  throw new UsageError(memorySentence(lang, "needs_id", { sub }));
}
