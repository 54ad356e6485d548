/**
 * `agent doctor`'s hub line: whether a hub answers on the control API.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import { fetchControl } from "../control/client.ts";
import { catalogue } from "../i18n.ts";
import { DEFAULT_HUB_PORT } from "../config/defaults.ts";

const t = catalogue({
  running: "running (pid {pid}) on 127.0.0.1:{port}",
  none: "no hub answers on 127.0.0.1:{port} (start one with `agent hub run`)",
  other:
    "the hub on 127.0.0.1:{port} (pid {pid}) serves another home ({dir}); this home's hub is not running there. Give this home another [hub] port",
  token:
    "the hub (pid {pid}) refuses this home's control token ({file}); restart it with `agent hub stop` and `agent hub run`",
}, {
  running: "çalışıyor (pid {pid}), 127.0.0.1:{port}",
  none: "127.0.0.1:{port} üzerinde yanıt veren hub yok (`agent hub run` ile başlatın)",
  other:
    "127.0.0.1:{port} üzerindeki hub (pid {pid}) başka bir eve hizmet ediyor ({dir}); bu evin hub'ı orada çalışmıyor. Bu eve başka bir [hub] port verin",
  token:
    "hub (pid {pid}) bu evin denetim belirtecini kabul etmiyor ({file}); `agent hub stop` ve `agent hub run` ile yeniden başlatın",
});

/** `ok hub: running (pid N) ...` or `info hub: no hub answers ...`. */
export async function hubCheck(d: DoctorContext): Promise<CheckResult[]> {
  const port = d.config?.hub.port ?? DEFAULT_HUB_PORT;
  const health = await fetchControl(port, "/health", { timeoutMs: 1000 });
  if (health === undefined || health.ok !== true) {
    return [{ name: "hub", status: "info", detail: t(d.lang, "none", { port }) }];
  }
  const pid = String(health.pid ?? "?");
  if (typeof health.data_dir === "string" && health.data_dir !== d.paths.dataDir) {
    return [{
      name: "hub",
      status: "warn",
      detail: t(d.lang, "other", { pid, port, dir: health.data_dir }),
    }];
  }
  // The CLI, the TUI and the dashboard reach every other route with the token the hub
  // wrote at start: a token it refuses means they would all see "unauthorized".
  const status = await fetchControl(port, "/status", {
    timeoutMs: 1000,
    tokenFile: d.paths.hubTokenFile,
  });
  if (status === undefined) {
    return [{
      name: "hub",
      status: "warn",
      detail: t(d.lang, "token", { pid, file: d.paths.hubTokenFile }),
    }];
  }
  return [{ name: "hub", status: "ok", detail: t(d.lang, "running", { pid, port }) }];
}
