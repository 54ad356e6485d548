/**
 * `agent doctor`'s jobs lines: the job files that cannot be used, and a warning when
 * jobs exist but no hub runs as a service (a launchd agent, or a systemd unit that
 * runs this home's hub), since a job runs only while a hub does. No line at all while
 * there are no jobs.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../doctor/types.ts";
import { catalogue } from "../i18n.ts";
import { plistFile } from "../daemon/launchd.ts";
import { loadJobs } from "../jobs/files.ts";

const t = catalogue({
  ok: "{count} job(s); a hub service runs them ({service})",
  no_service:
    "{count} job(s) in persona/jobs/ but no hub runs as a service, so they run only while `agent hub run` does (`agent hub install` on macOS, `agent hub systemd-unit` on Linux)",
}, {
  ok: "{count} görev; bir hub hizmeti çalıştırıyor ({service})",
  no_service:
    "persona/jobs/ içinde {count} görev var ama hizmet olarak çalışan bir hub yok; yalnızca `agent hub run` çalışırken çalışırlar (macOS'ta `agent hub install`, Linux'ta `agent hub systemd-unit`)",
});

/** The jobs check. */
export async function jobsCheck(d: DoctorContext): Promise<CheckResult[]> {
  if (d.config === undefined) return [];
  const { jobs, errors } = await loadJobs(d.paths, d.config, d.lang);
  const lines: CheckResult[] = errors.map((detail) => ({ name: "jobs", status: "warn", detail }));
  if (jobs.length === 0) return lines;
  const service = await hubService(d.env.HOME ?? "", d.paths.home);
  lines.unshift(
    service === undefined
      ? { name: "jobs", status: "warn", detail: t(d.lang, "no_service", { count: jobs.length }) }
      : { name: "jobs", status: "ok", detail: t(d.lang, "ok", { count: jobs.length, service }) },
  );
  return lines;
}

/** The service file that runs this home's hub, if any. */
async function hubService(userHome: string, home: string): Promise<string | undefined> {
  if (userHome !== "") {
    try {
      await Deno.stat(plistFile(userHome));
      return plistFile(userHome);
    } catch { /* not on macOS, or not installed */ }
  }
  const dirs = [`${userHome}/.config/systemd/user`, "/etc/systemd/system"];
  for (const dir of dirs) {
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (!entry.name.endsWith(".service")) continue;
        const text = await Deno.readTextFile(`${dir}/${entry.name}`).catch(() => "");
        if (text.includes(" hub run") && text.includes(home)) return `${dir}/${entry.name}`;
      }
    } catch { /* no such folder */ }
  }
  return undefined;
}
