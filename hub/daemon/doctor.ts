/**
 * `agent doctor`'s hub line: whether a hub answers on the control API.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import { fetchControl } from "../control/mod.ts";
import { catalogue } from "../i18n.ts";
import { DEFAULT_HUB_PORT } from "../config/defaults.ts";

const t = catalogue({
  running: "running (pid {pid}) on 127.0.0.1:{port}",
  none: "no hub answers on 127.0.0.1:{port} (start one with `agent hub run`)",
  other:
    "the hub on 127.0.0.1:{port} (pid {pid}) serves another home ({dir}); this home's hub is not running there. Give this home another [hub] port",
}, {
  running: "çalışıyor (pid {pid}), 127.0.0.1:{port}",
  none: "127.0.0.1:{port} üzerinde yanıt veren hub yok (`agent hub run` ile başlatın)",
  other:
    "127.0.0.1:{port} üzerindeki hub (pid {pid}) başka bir eve hizmet ediyor ({dir}); bu evin hub'ı orada çalışmıyor. Bu eve başka bir [hub] port verin",
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
  return [{ name: "hub", status: "ok", detail: t(d.lang, "running", { pid, port }) }];
}
