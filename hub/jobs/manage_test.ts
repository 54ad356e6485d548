import assert from "node:assert/strict";
import { loadConfig } from "../config/read.ts";
import { UserError } from "../user_error.ts";
import { jobHome } from "./_testing.ts";
import { listLines } from "./lines.ts";
import { type JobsScope, listJobs, pauseJobs, resumeJobs } from "./manage.ts";
import { ALL_JOBS } from "./pause_store.ts";

const TOKEN = "spine-token-never-shown";

Deno.test("pauseJobs(), resumeJobs() and listJobs() say when the spine both hubs share is silent", async () => {
  const home = await jobHome();
  try {
    await home.write({ name: "news" });
    const scope: JobsScope = {
      paths: home.paths,
      config: await loadConfig(home.paths, { lang: "en" }),
      lang: "en",
      env: { AGENT_SPINE_URL: "http://spine.invalid", AGENT_SPINE_TOKEN: TOKEN },
      fetch: () => Promise.reject(new TypeError("connection refused")),
    };
    // The pause holds here and waits to be sent; the sentence says the other hub may run.
    const paused = await pauseJobs(scope, undefined);
    assert.match(paused, /^Paused all jobs on this hub only: the spine did not answer \(.+\)\./);
    assert.ok(!paused.includes(TOKEN));
    assert.deepEqual(home.store.pauses.unsent().map((r) => r.job), [ALL_JOBS]);
    // The listing shows what this hub last knew, and says so first.
    const listing = await listJobs(scope);
    assert.equal(listing.pauses, "stale");
    assert.equal(listing.all_paused, true);
    assert.match(
      listLines(listing, "en")[0]!,
      /^The spine did not answer \(.+\): the pauses shown/,
    );
    // A resume the spine did not get would be undone at the next slot: refused, exit 1,
    // except for a pause that never reached it.
    await assert.rejects(
      () => resumeJobs({ ...scope, lang: "tr" }, "news"),
      (error: unknown) =>
        error instanceof UserError && error.exitCode === 1 &&
        /^'news' görevi sürdürülemiyor: /.test(error.message),
    );
    home.store.pauses.markSent(ALL_JOBS);
    await assert.rejects(() => resumeJobs(scope, undefined), {
      message: /^Cannot resume the jobs: .+; they stay paused\. Try again when it answers\.$/,
    });
    assert.ok(home.store.pauses.all().has(ALL_JOBS));
    home.store.pauses.markUnsent(ALL_JOBS);
    assert.equal(await resumeJobs(scope, undefined), "Resumed all jobs.");
    assert.equal(home.store.pauses.all().size, 0);
    // Without a spine in the environment: this home's store alone, as before.
    const local = { ...scope, env: {} };
    assert.equal(await pauseJobs(local, "news"), "Paused job 'news'.");
    assert.equal((await listJobs(local)).pauses, "local");
    assert.deepEqual(home.store.pauses.unsent(), []);
  } finally {
    await home.close();
  }
});
