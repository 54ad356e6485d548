import assert from "node:assert/strict";
import { loadConfig } from "../config/read.ts";
import { jobHome } from "../jobs/_testing.ts";
import { jobsCheck } from "./jobs_doctor.ts";

Deno.test("jobsCheck() warns when jobs exist but no hub runs as a service", async () => {
  const home = await jobHome();
  const userHome = await Deno.makeTempDir({ prefix: "agent-jobs-user-" });
  try {
    const config = await loadConfig(home.paths, { lang: "en" });
    const context = {
      paths: home.paths,
      env: { HOME: userHome },
      lang: "en" as const,
      config,
      configError: undefined,
      now: Date.now(),
      registry: () => Promise.reject(new Error("not needed")),
    };
    assert.deepEqual(await jobsCheck(context), []);
    await home.write({ name: "news" });
    await Deno.writeTextFile(`${home.paths.personaDir}/jobs/bad.md`, "no front matter");
    const [first, second] = await jobsCheck(context);
    assert.equal(first?.status, "warn");
    assert.match(
      first?.detail ?? "",
      /^1 job\(s\) in persona\/jobs\/ but no hub runs as a service/,
    );
    assert.equal(
      second?.detail,
      "persona/jobs/bad.md: must start with a front matter block between two --- lines.",
    );
    // A systemd user unit that runs this home's hub counts as a service.
    const units = `${userHome}/.config/systemd/user`;
    await Deno.mkdir(units, { recursive: true });
    await Deno.writeTextFile(
      `${units}/agent-hub.service`,
      `[Service]\nExecStart=/usr/bin/deno run cli/main.ts --home ${home.paths.home} hub run\n`,
    );
    const [ok] = await jobsCheck(context);
    assert.equal(ok?.status, "ok");
    assert.match(
      ok?.detail ?? "",
      /^1 job\(s\); a hub service runs them \(.*agent-hub\.service\)$/,
    );
  } finally {
    await Deno.remove(userHome, { recursive: true });
    await home.close();
  }
});
