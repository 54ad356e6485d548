import assert from "node:assert/strict";
import { eventText, type OwnerEvent, ownerEventLine, saidText } from "./events/mod.ts";
import { LANGS } from "./i18n.ts";
import {
  budgetSpentSaid,
  budgetSpentSentence,
  type BudgetWarning,
  budgetWarningSaid,
  budgetWarningSentence,
} from "./spend/mod.ts";
import { jobSaid, jobText } from "./jobs/run/notice.ts";
import { EVENT_BOOKS } from "./event_books.ts";
import { McpServerError } from "./mcp/connection.ts";

const WARNING: BudgetWarning = {
  role: "brain",
  spentUsd: 1234.5,
  capUsd: 1500,
  warnAt: 0.8,
  period: "month",
  sinceMs: Date.UTC(2026, 10, 1),
  resetMs: Date.UTC(2026, 11, 1),
};

Deno.test("a budget event's code reads exactly as the sentence the hub writes, in each language", () => {
  for (const lang of LANGS) {
    assert.equal(
      saidText(lang, budgetWarningSaid(WARNING), EVENT_BOOKS),
      budgetWarningSentence(lang, WARNING),
    );
    const spent = { ...WARNING, spentUsd: 1500.004, capUsd: 1500 };
    assert.equal(
      saidText(lang, budgetWarningSaid(spent), EVENT_BOOKS),
      budgetWarningSentence(lang, spent),
    );
    const status = {
      role: "fast",
      spentUsd: 1.02,
      capUsd: 1,
      sinceMs: 0,
      resetMs: Date.UTC(2026, 10, 30, 21),
      exhausted: true,
    } as Parameters<typeof budgetSpentSentence>[1];
    assert.equal(
      saidText(lang, budgetSpentSaid(status), EVENT_BOOKS),
      budgetSpentSentence(lang, status),
    );
  }
  assert.match(budgetWarningSentence("tr", WARNING), /\$1\.500,00 sınırının \$1\.234,50 kadarını/);
});

Deno.test("an owner event an English hub wrote reads in Turkish, an old one as it was written", () => {
  const said = jobSaid("ceiling_day", { vars: { name: "news" }, usd: { spent: 0.014, cap: 0.02 } });
  const english: OwnerEvent = {
    event_id: "1795958511375-000001",
    ts: 1,
    type: "job.notice",
    job: "news",
    text: jobText("en", said),
    said,
  };
  assert.match(english.text, /^Job news is paused: today's spend \$0\.014 and one more run/);
  assert.match(
    ownerEventLine("tr", english, EVENT_BOOKS),
    /^news görevi duraklatıldı: bugünkü harcama \$0,014 ve bir çalışma daha max_usd_per_day sınırı olan \$0,02 değerini aşar\./,
  );
  assert.equal(ownerEventLine("en", english, EVENT_BOOKS), english.text);
  // Before `said` existed: the sentence as stored.
  const { said: _, ...old } = english;
  assert.equal(ownerEventLine("tr", old, EVENT_BOOKS), english.text);
  // A code no catalogue knows (a newer hub's) falls back to the text too.
  const newer = { ...english, said: { code: "jobs.no_such_sentence" } };
  assert.equal(eventText("tr", newer, EVENT_BOOKS), english.text);
  assert.equal(
    eventText("tr", { ...english, said: { code: "nobook.x" } }, EVENT_BOOKS),
    english.text,
  );
});

Deno.test("a job's sentence words and counts follow the reader's language", () => {
  const said = jobSaid("missed_told", {
    vars: { name: "news", count: 1234, slot: "29.11.2026 08:00" },
    words: { what: "missed_once" },
  });
  assert.match(jobText("tr", said), /1\.234/);
  assert.match(jobText("en", said), /1,234/);
  assert.doesNotMatch(jobText("tr", said), /missed_once/);
});

Deno.test("an MCP server's failure, told in the hub's language, reads in the other from its code", () => {
  const error = new McpServerError("files", "not_found", { command: "nosuch" });
  for (const lang of LANGS) {
    assert.equal(saidText(lang, error.said(), EVENT_BOOKS), error.sentence(lang));
  }
  assert.equal(
    saidText("tr", error.said(), EVENT_BOOKS),
    "MCP sunucusu files başlamadı: nosuch programı bulunamadı.",
  );
  const timeout = new McpServerError("files", "timeout", { seconds: 30 });
  assert.equal(
    error.message,
    "The MCP server files did not start: the program nosuch was not found.",
  );
  assert.match(saidText("tr", timeout.said(), EVENT_BOOKS) ?? "", /30 sn içinde/);
});
