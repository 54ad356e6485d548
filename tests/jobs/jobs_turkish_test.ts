/**
 * The job log and list in Turkish (`[ui] lang = "tr"`): the outcome and pause words a
 * person reads are Turkish in `agent jobs run`, `agent jobs log` and `agent jobs list`,
 * and so are the log's reasons, also those an English hub wrote; `--json` and the job
 * store keep the English codes.
 */
import assert from "node:assert/strict";
import { JobStore } from "@agent/hub/jobs";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { rows } from "./_jobs.ts";

Deno.test("agent jobs run, log and list say outcomes and pauses in Turkish; --json keeps the codes", async () => {
  try {
    const home = await tempHome();
    const init = ["--home", home, "init", "--yes", "--provider", "fake", "--language", "tr"];
    assert.equal((await agent(init)).code, 0);
    assert.match(await Deno.readTextFile(`${home}/agent.toml`), /^lang = "tr"$/m);
    const add = await agent([
      "--home",
      home,
      "jobs",
      "add",
      "news",
      "--schedule",
      "0 9 * * *",
      "--prompt",
      "Report.",
    ]);
    assert.equal(add.code, 0, add.stderr);
    const run = await agent(["--home", home, "jobs", "run", "news"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^news görevi: tamam \(\$0,00\)\.$/m);
    // A run that failed, as the runner writes it.
    const store = JobStore.open(`${home}/data/jobs.sqlite3`);
    const now = Date.now();
    store.claim("news@failed", "news", now + 60_000, now);
    store.finish("news@failed", { state: "failed", usd: 0.01, nowMs: now, detail: "HTTP 500" });
    // Reasons an English hub wrote (before Turkish was chosen, or the other hub).
    store.claim("news@skipped", "news", now + 120_000, now);
    store.finish("news@skipped", {
      state: "missed",
      usd: 0,
      nowMs: now,
      detail: "skipped: the previous run was still running",
    });
    store.claim("news@stopped", "news", now + 180_000, now);
    store.finish("news@stopped", { state: "failed", usd: 0, nowMs: now, detail: "cancelled" });
    store.close();

    const log = await agent(["--home", home, "jobs", "log"]);
    assert.equal(log.code, 0, log.stderr);
    const [stopped, skipped, failed, ok] = log.stdout.trimEnd().split("\n");
    assert.match(
      stopped!,
      / {2}news {2}başarısız {2}\$0,00 {2}iptal edildi: çalışma yanıt vermeden durduruldu$/,
    );
    assert.match(
      skipped!,
      / {2}news {2}kaçırıldı {2}\$0,00 {2}atlandı: önceki çalışma hâlâ sürüyordu$/,
    );
    assert.match(
      failed!,
      /^\d\d\.\d\d\.\d{4} \d\d:\d\d {2}news {2}başarısız {2}\$0,01 {2}HTTP 500$/,
    );
    assert.match(ok!, /^\d\d\.\d\d\.\d{4} \d\d:\d\d {2}news {2}tamam {2}\$0,00 {2}Okay\.$/);
    const json = await agent(["--home", home, "jobs", "log", "--json"]);
    assert.deepEqual(JSON.parse(json.stdout).map((r: { state: string }) => r.state), [
      "failed",
      "missed",
      "failed",
      "ok",
    ]);
    assert.deepEqual(rows(home, "news").map((r) => r.state), ["ok", "failed", "missed", "failed"]);

    assert.equal((await agent(["--home", home, "jobs", "pause", "news"])).code, 0);
    const list = await agent(["--home", home, "jobs", "list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      /^news {2}0 9 \* \* \* \(Europe\/Istanbul\) {2}\[duraklatıldı: sizin tarafınızdan\]$/m,
    );
    assert.match(
      list.stdout,
      /^ {2}sonraki .* {2}son başarısız {2}bugün \$0,01 {2}30 gün \$0,01$/m,
    );
    for (const code of ["failed", "owner", " ok "]) {
      assert.ok(!list.stdout.includes(code), list.stdout);
    }
    const listJson = JSON.parse((await agent(["--home", home, "jobs", "list", "--json"])).stdout);
    assert.equal(listJson.jobs[0].last_state, "failed");
    assert.equal(listJson.jobs[0].paused, "owner");

    // A ceiling typed with the Turkish decimal comma (issue 39 W16), and with a point.
    const ceilings = await agent([
      "--home",
      home,
      "jobs",
      "add",
      "brief",
      "--schedule",
      "0 8 * * *",
      "--prompt",
      "Brief.",
      "--max-usd-per-run",
      "0,5",
      "--max-usd-per-day",
      "1.5",
    ]);
    assert.equal(ceilings.code, 0, ceilings.stderr);
    assert.match(ceilings.stdout, /^Tahmini maliyet: çalışma başına \$0,\d+/m);
    const brief = await Deno.readTextFile(`${home}/persona/jobs/brief.md`);
    assert.match(brief, /^max_usd_per_run: 0\.5$/m);
    assert.match(brief, /^max_usd_per_day: 1\.5$/m);
  } finally {
    await cleanup();
  }
});
