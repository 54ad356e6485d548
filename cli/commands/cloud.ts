/**
 * `agent cloud push [--include-user] [-y] | pull [--force] | status | run`: cloud mode
 * from this machine (push, pull, status) and in the brain container (run). Each needs
 * `AGENT_SPINE_URL` and `AGENT_SPINE_TOKEN`.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { UsageError } from "../command.ts";
import { plainSubcommandArgs, type PlainTable } from "../_plain_args.ts";

const words = {
  en: {
    push: "Upload agent.toml, the persona and sub-agent files to the cloud spine.",
    pull: "Download those files from the cloud spine into AGENT_HOME.",
    status: "Show the spine's health and mode, the files it holds and the brain's health.",
    run: "The brain container's entry point: pull, then run the hub until SIGTERM.",
    include_user: "also upload persona/user.md, your private profile",
    yes: "do not ask before uploading",
    force: "replace local files that differ from the spine's",
    unknown: "Unknown cloud command '{name}'.",
  },
  tr: {
    push: "agent.toml, persona ve alt ajan dosyalarını bulut spine'ına yükler.",
    pull: "Bu dosyaları bulut spine'ından AGENT_HOME içine indirir.",
    status: "Spine'ın sağlığını ve kipini, tuttuğu dosyaları ve beynin sağlığını gösterir.",
    run: "Beyin kapsayıcısının giriş noktası: indirir, sonra SIGTERM'e kadar hub'ı çalıştırır.",
    include_user: "özel profiliniz persona/user.md dosyasını da yükler",
    yes: "yüklemeden önce sormaz",
    force: "spine'dakinden farklı yerel dosyaları değiştirir",
    unknown: "Bilinmeyen cloud komutu '{name}'.",
  },
};

/** The `agent cloud` subcommands the plain path reads (checked against `configure()`). */
const CLOUD_PLAIN: PlainTable = {
  push: { flags: ["--include-user", "--yes"] },
  pull: { flags: ["--force"] },
  status: {},
  run: {},
};

/** `agent cloud`. */
export const command: CommandModule = {
  name: "cloud",
  summary: {
    en: "Cloud mode: push and pull the agent's files, the spine's status, the brain's entry point.",
    tr: "Bulut kipi: ajanın dosyalarını yükler ve indirir, spine durumu, beynin giriş noktası.",
  },
  configure(cmd, lang) {
    const w = words[lang];
    cmd.command("push").description(w.push)
      .option("--include-user", w.include_user)
      .option("-y, --yes", w.yes);
    cmd.command("pull").description(w.pull).option("--force", w.force);
    cmd.command("status").description(w.status);
    cmd.command("run").description(w.run);
  },
  plainArgs: (words) => plainSubcommandArgs(words, CLOUD_PLAIN),
  async run(ctx, args, opts) {
    switch (args[0]) {
      case "push":
        return await push(ctx, opts.includeUser === true, opts.yes === true);
      case "pull":
        return await pull(ctx, opts.force === true);
      case "status":
        return await status(ctx);
      case "run":
        return await run(ctx);
      default:
        throw new UsageError(words[ctx.lang].unknown.replace("{name}", args[0] ?? ""));
    }
  },
};

async function spineOf(ctx: CommandContext) {
  const { CloudSpine, cloudTarget } = await import("@agent/hub/cloud");
  const { url, token } = cloudTarget(ctx.env, ctx.lang);
  return new CloudSpine(url, token, ctx.lang);
}

async function push(ctx: CommandContext, includeUser: boolean, yes: boolean): Promise<number> {
  const [{ pushFiles, TerminalInput }, spine] = await Promise.all([
    import("@agent/hub/cloud"),
    spineOf(ctx),
  ]);
  const terminal = Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
  const input = terminal ? new TerminalInput() : undefined;
  try {
    return await pushFiles({
      spine,
      home: ctx.paths.home,
      lang: ctx.lang,
      includeUser,
      yes,
      ask: input ? (question) => input.confirm(question) : undefined,
      out: ctx.out,
    });
  } finally {
    input?.close();
  }
}

async function pull(ctx: CommandContext, force: boolean): Promise<number> {
  const [{ pullFiles }, spine] = await Promise.all([import("@agent/hub/cloud"), spineOf(ctx)]);
  await pullFiles({ spine, home: ctx.paths.home, lang: ctx.lang, force, out: ctx.out });
  return 0;
}

async function status(ctx: CommandContext): Promise<number> {
  const [{ cloudStatus }, spine] = await Promise.all([import("@agent/hub/cloud"), spineOf(ctx)]);
  return await cloudStatus(spine, ctx.lang, ctx.out);
}

async function run(ctx: CommandContext): Promise<number> {
  const [{ runCloud }, { VERSION }] = await Promise.all([
    import("@agent/hub/run"),
    import("@agent/hub/base"),
  ]);
  return await runCloud({
    env: ctx.env,
    paths: ctx.paths,
    lang: ctx.lang,
    logger: ctx.logger,
    version: VERSION,
    out: ctx.out,
    err: ctx.err,
  });
}
