import assert from "node:assert/strict";
import { jobFileText, parseJobFile } from "./definition.ts";

const file = (front: string, body = "Say hello.") => `---\n${front}\n---\n${body}\n`;

function sentence(text: string, lang: "en" | "tr" = "en", roles = ["fast", "brain"]): string {
  try {
    parseJobFile("news", text, { roles, lang });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("parsed");
}

Deno.test("parseJobFile() reads every key and fills the defaults", () => {
  const job = parseJobFile(
    "news",
    file(
      "schedule: 0 8 * * 1-5\ntz: America/New_York\nrole: brain\nmax_usd_per_run: 0.02\n" +
        "max_usd_per_day: 0.1\ndeliver: events\nmissed: skip\ntools: tier1",
    ),
  );
  assert.deepEqual(job, {
    name: "news",
    schedule: "0 8 * * 1-5",
    tz: "America/New_York",
    role: "brain",
    max_usd_per_run: 0.02,
    max_usd_per_day: 0.1,
    deliver: "events",
    missed: "skip",
    tools: "tier1",
    prompt: "Say hello.",
  });
  const plain = parseJobFile("news", file("schedule: '*/5 * * * *'"));
  assert.equal(plain.tz, "Europe/Istanbul");
  assert.equal(plain.role, "fast");
  assert.equal(plain.deliver, "messenger");
  assert.equal(plain.missed, "once");
  assert.equal(plain.tools, "none");
  assert.equal(plain.max_usd_per_run, undefined);
});

Deno.test("jobFileText() writes what parseJobFile() reads back", () => {
  const job = parseJobFile("news", file("schedule: 0 8 * * *\nmax_usd_per_run: 0.5", "A: b\n\nc"));
  assert.deepEqual(parseJobFile("news", jobFileText(job)), job);
});

Deno.test("parseJobFile() refuses bad files with one exact sentence", () => {
  const cases: [string, string][] = [
    [
      "Say hello.",
      "persona/jobs/news.md: must start with a front matter block between two --- lines.",
    ],
    [
      "---\nschedule: 0 8 * * *\n",
      "persona/jobs/news.md: the front matter has no closing --- line.",
    ],
    [file("tz: UTC"), "persona/jobs/news.md: front matter needs 'schedule'."],
    [
      file("schedule: 0 8 * * *\ncolour: red"),
      "persona/jobs/news.md: front matter has an unknown key 'colour' (keys: schedule, tz, role, max_usd_per_run, max_usd_per_day, deliver, missed, tools, mcp).",
    ],
    [
      file("schedule: 0 8 * * *\nschedule: 1 8 * * *"),
      "persona/jobs/news.md: front matter sets 'schedule' twice.",
    ],
    [file("schedule 0 8"), "persona/jobs/news.md: line 2 of the front matter is not 'key: value'."],
    [
      file("schedule: 0 8 * * *\ntz: Mars/Olympus"),
      "persona/jobs/news.md: front matter 'tz' must be a time zone such as Europe/Istanbul, not 'Mars/Olympus'.",
    ],
    [
      file("schedule: 0 8 * * *\nrole: poet"),
      "persona/jobs/news.md: front matter 'role' names 'poet', which is not a role in [models.roles].",
    ],
    [
      file("schedule: 0 8 * * *\nmax_usd_per_run: -1"),
      "persona/jobs/news.md: front matter 'max_usd_per_run' must be a positive number.",
    ],
    [
      file("schedule: 0 8 * * *\nmax_usd_per_day: lots"),
      "persona/jobs/news.md: front matter 'max_usd_per_day' must be a positive number.",
    ],
    [
      file("schedule: 0 8 * * *\nmax_usd_per_run: 1\nmax_usd_per_day: 0.5"),
      "persona/jobs/news.md: front matter 'max_usd_per_day' must be at least 'max_usd_per_run' (1).",
    ],
    [
      file("schedule: 0 8 * * *\ndeliver: email"),
      "persona/jobs/news.md: front matter 'deliver' must be one of messenger, events, none.",
    ],
    [
      file("schedule: 0 8 * * *\nmissed: twice"),
      "persona/jobs/news.md: front matter 'missed' must be one of skip, once.",
    ],
    [
      file("schedule: 0 8 * * *\ntools: all"),
      "persona/jobs/news.md: front matter 'tools' must be one of none, tier1.",
    ],
    [
      file("schedule: 0 8 * * *", ""),
      "persona/jobs/news.md: the prompt after the front matter must not be empty.",
    ],
    [
      file("schedule: 0 30 * * *"),
      "persona/jobs/news.md: front matter 'schedule' is not a cron expression: Invalid value for hour: 30.",
    ],
  ];
  for (const [text, expected] of cases) assert.equal(sentence(text), expected);
  assert.match(
    sentence(file("schedule: not cron")),
    /^persona\/jobs\/news\.md: front matter 'schedule' is not a cron expression: .+\.$/,
  );
});

Deno.test("parseJobFile() says its sentences in Turkish", () => {
  assert.equal(
    sentence(file("schedule: 0 8 * * *\ndeliver: email"), "tr"),
    "persona/jobs/news.md: ön bilgi 'deliver' şunlardan biri olmalı: messenger, events, none.",
  );
  assert.equal(
    sentence(file("tz: UTC"), "tr"),
    "persona/jobs/news.md: ön bilgi bloğu için 'schedule' gerekli.",
  );
});

Deno.test("parseJobFile() refuses a name that is not a job name", () => {
  assert.throws(
    () => parseJobFile("News!", file("schedule: 0 8 * * *")),
    { message: "persona/jobs/News!.md: a job's name must match ^[a-z][a-z0-9-]{1,30}$." },
  );
});

Deno.test("jobMayUse() offers an MCP tool only to a job that lists it (or its server), at tier 1", async () => {
  const { jobMayUse } = await import("./desks.ts");
  const { z } = await import("zod");
  const tool = (name: string, tier: 1 | 2, server?: string) => ({
    name,
    tier,
    description: "",
    inputSchema: z.object({}),
    ...(server === undefined ? {} : { origin: { server, tool: name.split("__")[1]! } }),
    execute: () => Promise.resolve(null),
  });
  const read = tool("fs__read", 1, "fs");
  const write = tool("fs__write", 2, "fs");
  assert.equal(jobMayUse(read, "tier1", []), false, "tier1 alone brings no MCP tool");
  assert.equal(jobMayUse(read, "none", ["fs__read"]), true);
  assert.equal(jobMayUse(read, "none", ["fs"]), true);
  assert.equal(jobMayUse(write, "tier1", ["fs"]), false, "tier 2 never runs in a job");
  assert.equal(jobMayUse(tool("current_time", 1), "tier1", []), true);
  assert.equal(jobMayUse(tool("current_time", 1), "none", ["fs"]), false);
  const { parseJobFile } = await import("./definition.ts");
  const job = parseJobFile("news", "---\nschedule: 0 8 * * *\nmcp: fs__read, weather\n---\nHi.\n");
  assert.equal(job.mcp, "fs__read, weather");
});
