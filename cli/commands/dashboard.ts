/**
 * `agent dashboard [--no-open]`: signs the browser into the web dashboard the running
 * hub serves on its loopback port. It asks the hub (with the control token in
 * `<data>/hub.token`) for a one-time code and opens
 * `http://127.0.0.1:<port>/dashboard/#code=<code>` in the default browser, or prints it
 * with `--no-open` and over SSH. No hub running for this home: it starts one first, in
 * the background, after saying so.
 *
 * `agent dashboard --cloud [--no-open]` signs the browser into the same dashboard served
 * by the brain behind the cloud spine (`AGENT_SPINE_URL`, `AGENT_SPINE_TOKEN`): the
 * spine hands out the one-time code for the hub token, and the address is
 * `<spine>/hub/dashboard/#code=<code>`. The token itself never leaves this machine in a
 * URL.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import type { CommandContext } from "../context.ts";
import { cloudTarget } from "@agent/hub/base";

const words = {
  en: {
    no_open: "print the address instead of opening a browser",
    starting: "No hub runs for this home; starting one in the background (`agent hub run`)…",
    no_start: "The hub did not start within 30 s; see {log} or run `agent hub run` to see why.",
    other:
      "The hub on 127.0.0.1:{port} serves another home ({dir}); give this home another [hub] port.",
    refused:
      "The hub refused this home's control token ({file}); restart it with `agent hub stop` and `agent hub run`.",
    open: "Opening the dashboard in your browser. If nothing opens, visit (once, within 60 s):",
    visit: "Open this address in a browser on this machine (it works once, within 60 s):",
    cloud: "sign into the dashboard of the brain behind the cloud spine (AGENT_SPINE_URL)",
    cloud_waiting:
      "Asking the cloud spine for a sign-in code (its brain may take up to 90 s to start)…",
    cloud_visit: "Open this address in a browser (it works once, within 60 s):",
  },
  tr: {
    no_open: "tarayıcı açmak yerine adresi yazdırır",
    starting: "Bu ev için çalışan hub yok; arka planda bir tane başlatılıyor (`agent hub run`)…",
    no_start:
      "Hub 30 sn içinde başlamadı; nedenini görmek için {log} dosyasına bakın ya da `agent hub run` çalıştırın.",
    other:
      "127.0.0.1:{port} üzerindeki hub başka bir eve hizmet ediyor ({dir}); bu eve başka bir [hub] port verin.",
    refused:
      "Hub bu evin denetim belirtecini kabul etmedi ({file}); `agent hub stop` ve `agent hub run` ile yeniden başlatın.",
    open:
      "Panel tarayıcınızda açılıyor. Hiçbir şey açılmazsa şu adrese gidin (bir kez, 60 sn içinde):",
    visit: "Bu adresi bu makinedeki bir tarayıcıda açın (bir kez, 60 sn içinde çalışır):",
    cloud: "bulut spine'ın arkasındaki beynin paneline girer (AGENT_SPINE_URL)",
    cloud_waiting: "Bulut spine'dan giriş kodu isteniyor (beynin açılması 90 sn sürebilir)…",
    cloud_visit: "Bu adresi bir tarayıcıda açın (bir kez, 60 sn içinde çalışır):",
  },
};

function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ""));
}

/** `agent dashboard`. */
export const command: CommandModule = {
  name: "dashboard",
  summary: {
    en: "Open the web dashboard of the running hub (spend, conversations, approvals).",
    tr: "Çalışan hub'ın web panelini açar (harcama, konuşmalar, onaylar).",
  },
  configure(cmd, lang) {
    cmd.option("--no-open", words[lang].no_open);
    cmd.option("--cloud", words[lang].cloud);
  },
  async run(ctx, _args, opts) {
    const w = words[ctx.lang];
    if (opts.cloud === true) return await cloudDashboard(ctx, opts.open !== false);
    const port = (await ctx.config()).hub.port;
    const { fetchControl, readHubToken, bearerHeaders } = await import("@agent/hub/daemon");
    let health = await fetchControl(port, "/health", { timeoutMs: 1000 });
    if (health === undefined) {
      ctx.err(w.starting);
      await startHub(ctx);
      const end = Date.now() + 30_000;
      while (health?.data_dir !== ctx.paths.dataDir && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 250));
        health = await fetchControl(port, "/health", { timeoutMs: 1000 });
      }
      if (health === undefined) {
        ctx.err(fill(w.no_start, { log: ctx.paths.logFile }));
        return 1;
      }
    }
    if (health.data_dir !== ctx.paths.dataDir) {
      ctx.err(fill(w.other, { port, dir: String(health.data_dir) }));
      return 1;
    }
    let res: Response;
    try {
      res = await fetch(`http://127.0.0.1:${port}/dashboard/code`, {
        method: "POST",
        headers: bearerHeaders(await readHubToken(ctx.paths.hubTokenFile)),
        signal: AbortSignal.timeout(5_000),
      });
    } catch {
      ctx.err(fill(w.no_start, { log: ctx.paths.logFile }));
      return 1;
    }
    const body = await res.json().catch(() => ({})) as { code?: string };
    if (!res.ok || typeof body.code !== "string") {
      ctx.err(fill(w.refused, { file: ctx.paths.hubTokenFile }));
      return 1;
    }
    const url = `http://127.0.0.1:${port}/dashboard/#code=${body.code}`;
    return await showAddress(ctx, url, opts.open !== false, w.visit);
  },
};

/** `agent dashboard --cloud`: the sign-in address of the dashboard behind the cloud spine. */
async function cloudDashboard(ctx: CommandContext, open: boolean): Promise<number> {
  const w = words[ctx.lang];
  // Checked before the hub loads: a missing variable is one line and exit 2.
  const { url, token } = cloudTarget(ctx.env, ctx.lang);
  const { CloudSpine } = await import("@agent/hub");
  const spine = new CloudSpine(url, token, ctx.lang);
  ctx.err(w.cloud_waiting);
  const code = await spine.dashboardCode();
  return await showAddress(ctx, `${spine.url}/hub/dashboard/#code=${code}`, open, w.cloud_visit);
}

/**
 * Opens the sign-in address in the browser and says so, or prints it after `visit` when
 * asked not to open, over SSH (the browser is on another machine) or when no browser
 * opens.
 */
async function showAddress(
  ctx: CommandContext,
  address: string,
  open: boolean,
  visit: string,
): Promise<number> {
  const remote = Boolean(ctx.env.SSH_CONNECTION || ctx.env.SSH_TTY);
  ctx.out(!open || remote || !(await openBrowser(address)) ? visit : words[ctx.lang].open);
  ctx.out(address);
  return 0;
}

/** Starts `agent hub run` for this home as a background process that outlives this one. */
async function startHub(ctx: CommandContext): Promise<void> {
  const { agentLaunch, readAgentShim } = await import("@agent/hub/daemon");
  const launch = agentLaunch({
    mainModule: Deno.mainModule,
    standalone: (Deno.build as { standalone?: boolean }).standalone === true,
    jsrUrl: ctx.env.JSR_URL ? `${ctx.env.JSR_URL.replace(/\/+$/, "")}/` : undefined,
    shimArgs: (pkg) => readAgentShim(pkg, ctx.env),
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: [...launch.denoArgs, "--home", ctx.paths.home, "hub", "run"],
    env: launch.env,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  child.unref();
}

/** Opens `url` in the default browser; false when there is no opener to run. */
async function openBrowser(url: string): Promise<boolean> {
  const [cmd, ...args] = Deno.build.os === "darwin"
    ? ["open", url]
    : Deno.build.os === "windows"
    ? ["cmd", "/c", "start", "", url]
    : ["xdg-open", url];
  try {
    const child = new Deno.Command(cmd!, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const status = await Promise.race([
      child.status,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 3_000)),
    ]);
    if (status === undefined) {
      child.unref();
      return true;
    }
    return status.success;
  } catch {
    return false;
  }
}
