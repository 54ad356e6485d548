/**
 * `agent hub run|status|stop|install|uninstall|systemd-unit`: the long-lived hub and
 * the service files that keep it running.
 *
 * `systemd-unit --deno PATH` names the Deno executable that runs the hub (default: the
 * running Deno); `--python PATH`, the specification's name for it, is the same option.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { UsageError } from "../command.ts";
import { DEFAULT_HUB_PORT } from "@agent/hub/config";
import { UserError } from "@agent/hub/base";
import { plainSubcommandArgs, type PlainTable } from "../_plain_args.ts";

const words = {
  en: {
    run: "Run the hub in the foreground (Ctrl-C stops it).",
    status: "Show whether a hub runs: pid, uptime, heartbeat, last crash, launchd.",
    stop: "Stop the running hub (SIGTERM) and wait for it.",
    install: "Install the hub as a launchd user agent (macOS).",
    uninstall: "Remove the hub's launchd user agent (macOS).",
    systemd: "Print a systemd unit that runs the hub.",
    json: "print JSON",
    timeout: "seconds to wait (default 15.0)",
    deno: "the Deno executable that runs the hub (default: this one)",
    python: "the same as --deno (the specification's name)",
    bad_timeout: "--timeout needs a number of seconds above 0.",
  },
  tr: {
    run: "hub'ı ön planda çalıştırır (Ctrl-C durdurur).",
    status: "hub çalışıyor mu: pid, çalışma süresi, nabız, son çökme, launchd.",
    stop: "Çalışan hub'ı durdurur (SIGTERM) ve bekler.",
    install: "hub'ı launchd kullanıcı ajanı olarak kurar (macOS).",
    uninstall: "hub'ın launchd kullanıcı ajanını kaldırır (macOS).",
    systemd: "hub'ı çalıştıran bir systemd birimi yazdırır.",
    json: "JSON yazdırır",
    timeout: "beklenecek saniye (varsayılan 15.0)",
    deno: "hub'ı çalıştıran Deno programı (varsayılan: bu)",
    python: "--deno ile aynı (belirtimdeki adı)",
    bad_timeout: "--timeout 0'dan büyük bir saniye sayısı ister.",
  },
};

/** The `agent hub` subcommands the plain path reads (checked against `configure()`). */
const HUB_PLAIN: PlainTable = {
  run: {},
  status: { flags: ["--json"] },
  stop: { options: ["--timeout"] },
};

/** `agent hub`. */
export const command: CommandModule = {
  name: "hub",
  summary: {
    en: "Run and manage the hub (the long-lived process that serves the channels).",
    tr: "hub'ı çalıştırır ve yönetir (kanallara hizmet eden uzun ömürlü süreç).",
  },
  configure(cmd, lang) {
    const w = words[lang];
    cmd.command("run").description(w.run);
    cmd.command("status").description(w.status).option("--json", w.json);
    cmd.command("stop").description(w.stop).option("--timeout <seconds>", w.timeout);
    cmd.command("install").description(w.install);
    cmd.command("uninstall").description(w.uninstall);
    cmd.command("systemd-unit").description(w.systemd)
      .option("--deno <path>", w.deno)
      .option("--python <path>", w.python);
  },
  plainArgs: (words) => plainSubcommandArgs(words, HUB_PLAIN),
  async run(ctx, args, opts) {
    switch (args[0]) {
      case "run":
        return await runCommand(ctx);
      case "status":
        return await statusCommand(ctx, opts.json === true);
      case "stop":
        return await stopCommand(ctx, opts.timeout);
      case "install":
      case "uninstall":
        return await launchdCommand(ctx, args[0]);
      case "systemd-unit":
        return await systemdCommand(ctx, opts.deno ?? opts.python);
      default:
        throw new UsageError(`Unknown hub command '${args[0] ?? ""}'.`);
    }
  },
};

async function port(ctx: CommandContext): Promise<number> {
  try {
    return (await ctx.config()).hub.port;
  } catch {
    // status and stop work without a valid agent.toml.
    return DEFAULT_HUB_PORT;
  }
}

async function runCommand(ctx: CommandContext): Promise<number> {
  let config;
  try {
    config = await ctx.config();
  } catch (error) {
    // A hub command that cannot do its job exits 1 (docs/commands.md); 2 is for usage.
    if (error instanceof UserError) throw new UserError(error.message, 1, { cause: error });
    throw error;
  }
  const [{ runAssembledHub, startHub, unwritableHome }, { VERSION }] = await Promise.all([
    import("@agent/hub/run"),
    import("@agent/hub/base"),
  ]);
  // A read-only home is one sentence, before any part of the hub tries its files.
  const readOnly = unwritableHome(ctx.paths, ctx.lang);
  if (readOnly !== undefined) throw new UserError(readOnly, 1);
  const hub = await startHub({
    config,
    env: ctx.env,
    paths: ctx.paths,
    lang: ctx.lang,
    logger: ctx.logger,
  });
  try {
    return await runAssembledHub(hub, {
      paths: ctx.paths,
      lang: ctx.lang,
      logger: ctx.logger,
      port: config.hub.port,
      version: VERSION,
      out: ctx.out,
      err: ctx.err,
    });
  } finally {
    await hub.close();
  }
}

async function statusCommand(ctx: CommandContext, json: boolean): Promise<number> {
  const daemon = await import("@agent/hub/daemon");
  const home = ctx.env.HOME ?? "";
  let uid = 0;
  try {
    uid = Deno.uid() ?? 0;
  } catch { /* no --allow-sys */ }
  const launchd = await daemon.launchdState(home, uid);
  const report = await daemon.hubStatus(ctx.paths.hubLockFile, {
    port: await port(ctx),
    tokenFile: ctx.paths.hubTokenFile,
    launchd,
    lang: ctx.lang,
  });
  if (json) ctx.out(JSON.stringify(report, null, 2));
  else for (const line of daemon.statusLines(report, ctx.lang)) ctx.out(line);
  return 0;
}

async function stopCommand(ctx: CommandContext, timeout: unknown): Promise<number> {
  let seconds = 15;
  if (timeout !== undefined) {
    seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) {
      throw new UsageError(words[ctx.lang].bad_timeout);
    }
  }
  const { stopHub } = await import("@agent/hub/daemon");
  return await stopHub(ctx.paths.hubLockFile, {
    timeoutSeconds: seconds,
    lang: ctx.lang,
    out: ctx.out,
    err: ctx.err,
  });
}

/** How this agent was started: a service file starts the hub the same way. */
async function launch(ctx: CommandContext) {
  const { agentLaunch, readAgentShim } = await import("@agent/hub/daemon");
  return agentLaunch({
    mainModule: Deno.mainModule,
    standalone: (Deno.build as { standalone?: boolean }).standalone === true,
    jsrUrl: ctx.env.JSR_URL ? `${ctx.env.JSR_URL.replace(/\/+$/, "")}/` : undefined,
    shimArgs: (pkg) => readAgentShim(pkg, ctx.env),
  });
}

async function launchdCommand(ctx: CommandContext, which: "install" | "uninstall") {
  const daemon = await import("@agent/hub/daemon");
  const t = daemon.hubMessages;
  if (Deno.build.os !== "darwin") {
    ctx.err(t(ctx.lang, "macos_only", { command: which }));
    return 1;
  }
  const home = ctx.env.HOME ?? "";
  const uid = Deno.uid() ?? 0;
  try {
    if (which === "uninstall") {
      const removed = await daemon.uninstallLaunchd(home, uid);
      ctx.out(t(ctx.lang, removed ? "uninstalled" : "uninstall_none", {
        label: daemon.LAUNCHD_LABEL,
      }));
      return 0;
    }
    const plist = daemon.launchdPlist({
      executable: Deno.execPath(),
      launch: await launch(ctx),
      home: ctx.paths.home,
      logFile: `${ctx.paths.dataDir}/logs/hub.out`,
    });
    await Deno.mkdir(`${ctx.paths.dataDir}/logs`, { recursive: true });
    const file = await daemon.installLaunchd(home, uid, plist);
    ctx.out(t(ctx.lang, "installed", { label: daemon.LAUNCHD_LABEL, file }));
    return 0;
  } catch (error) {
    if (error instanceof daemon.LaunchdError) {
      ctx.err(t(ctx.lang, error.key, { uid, detail: error.detail }));
      return 1;
    }
    throw error;
  }
}

async function systemdCommand(ctx: CommandContext, deno: unknown): Promise<number> {
  const { systemdUnit } = await import("@agent/hub/daemon");
  let executable = typeof deno === "string" ? deno : Deno.execPath();
  if (!executable.startsWith("/")) executable = `${Deno.cwd()}/${executable}`;
  ctx.out(
    systemdUnit({
      executable,
      launch: await launch(ctx),
      home: ctx.paths.home,
      dataDir: ctx.env.AGENT_DATA_DIR || undefined,
    }).trimEnd(),
  );
  return 0;
}
