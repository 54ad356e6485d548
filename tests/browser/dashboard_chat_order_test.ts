/**
 * The web chat's order and what it keeps, in headless Chromium over a real hub with the
 * fake model: lines typed during an answer each get their answer under them, their
 * "queued" marks gone once answered (issue 39, W8); a conversation opened again shows
 * its refused tool call and each answer's cost, scrolled to its end (W9); a line sent
 * while the hub is stopped stays in the box with a sentence, not a `TypeError` (W11).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, ready, signedIn, T, useTheme } from "../dashboard/_browser.ts";

/** The transcript as role and first words, in the order it is drawn. */
async function drawn(page: Page): Promise<string[]> {
  return await page.$$eval(
    ".transcript .msg",
    (els) =>
      els.map((el) =>
        `${el.classList.contains("user") ? "Q" : "A"}:${
          (el.querySelector(".body")?.textContent ?? "").trim().split(" ")[0]
        }`
      ),
  );
}

async function send(page: Page, text: string): Promise<void> {
  await page.fill("#message", text);
  await page.keyboard.press("Enter");
}

Deno.test({
  name: "dashboard chat: lines typed during an answer each get their answer under them, unmarked",
  ...T,
  async fn() {
    const long = Array.from({ length: 200 }, (_, i) => `one${i}`).join(" ");
    await using hub = await startDashboardHub({
      wordMs: 25,
      replies: [long, "two is answered here.", "three is answered here."],
    });
    const browser = await launch();
    try {
      const { page, problems } = await signedIn(browser, await hub.loginUrl(), {
        viewport: { width: 1280, height: 800 },
        view: "conversations",
      });
      await send(page, "first");
      await page.waitForSelector(".msg.assistant");
      // A person's first conversation is listed while its first answer is written, not
      // denied ("No sessions yet.") until the answer ends.
      const session = decodeURIComponent(page.url().split("#/conversations/")[1] ?? "");
      assert.match(session, /^web-/);
      // Listed with the person's message it has stored (" · 1"), in a second at most.
      await page.waitForFunction(
        (id) => {
          const entry = document.querySelector(".list li button[aria-current='true']");
          return entry?.textContent?.startsWith(id) === true &&
            entry.textContent.endsWith(" · 1");
        },
        session,
        { timeout: 1_000 },
      );
      assert.equal(await page.$(".list li.muted"), null, "no empty-list sentence");
      assert.equal(await page.textContent("#chat-status"), "answering…", "still answering");
      // Typed at once, while the first answer streams: screenshots and a viewport change
      // before them took longer than the whole answer on a saturated machine (stop 45's CI),
      // so the two lines were not typed during it.
      await send(page, "second");
      await send(page, "third");
      await page.waitForFunction(() => document.querySelectorAll(".msg.user .note").length === 2);
      await page.screenshot({ path: `${ARTIFACTS}chat-typeahead-queued-desktop.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${ARTIFACTS}chat-first-answer-listed-phone.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll(".msg.assistant")].some((m) =>
            m.textContent?.includes("three is answered here.")
          ) && document.getElementById("chat-status")?.textContent === "",
        undefined,
        { timeout: 20_000 },
      );
      assert.deepEqual(await drawn(page), [
        "Q:first",
        "A:one0",
        "Q:second",
        "A:two",
        "Q:third",
        "A:three",
      ]);
      assert.equal(await page.$$eval(".msg .note", (n) => n.length), 0, "no queued mark is left");
      await page.screenshot({ path: `${ARTIFACTS}chat-typeahead-desktop.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.selectOption("#lang", "tr");
      await useTheme(page, "dark");
      await page.waitForSelector(".msg.assistant");
      await page.screenshot({ path: `${ARTIFACTS}chat-typeahead-phone-dark-tr.png` });
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "dashboard chat: a conversation opened again keeps its refused tool call and each answer's cost, and opens at its end",
  ...T,
  async fn() {
    const answers = Array.from(
      { length: 6 },
      (_, i) => `Answer ${i}. ${"Some words to make it long. ".repeat(12)}`,
    );
    await using hub = await startDashboardHub({
      replies: ['/tool write_note {"name":"web","text":"from the web"}', "Not saved.", ...answers],
    });
    const browser = await launch();
    try {
      const { page, problems } = await signedIn(browser, await hub.loginUrl(), {
        viewport: { width: 1280, height: 800 },
        view: "conversations",
      });
      await send(page, "please save a note");
      await page.waitForSelector(
        ".transcript [data-approval] button[data-decision='deny']:enabled",
      );
      await page.click(".transcript [data-approval] button[data-decision='deny']");
      await page.waitForFunction(() =>
        [...document.querySelectorAll(".msg.assistant .meta")].length === 1
      );
      for (let i = 0; i < answers.length; i++) {
        await send(page, `question ${i}`);
        await page.waitForFunction(
          (n) => document.querySelectorAll(".msg.assistant .meta").length === n,
          i + 2,
        );
      }
      const live = await page.$$eval(".msg.assistant .meta", (m) => m.map((e) => e.textContent));
      // Opened again (a reload draws it from the stored session and the ledger).
      await page.reload();
      await ready(page);
      await page.waitForSelector(".transcript .msg");
      assert.equal(
        await page.textContent(".transcript .tool-step.refused"),
        "✗ write_note did not run: it was denied",
      );
      const reopened = await page.$$eval(
        ".msg.assistant .meta",
        (m) => m.map((e) => e.textContent),
      );
      assert.deepEqual(reopened, live, "each answer keeps its cost line");
      const end = await page.$eval(
        ".transcript",
        (el) => el.scrollHeight - el.scrollTop - el.clientHeight,
      );
      assert.ok(end < 2, `opened ${end}px above its end`);
      await page.screenshot({ path: `${ARTIFACTS}chat-reopened-desktop.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.selectOption("#lang", "tr");
      await ready(page);
      await page.waitForSelector(".transcript .tool-step.refused");
      assert.equal(
        await page.textContent(".transcript .tool-step.refused"),
        "✗ write_note çalışmadı: reddedildi",
      );
      await page.screenshot({ path: `${ARTIFACTS}chat-reopened-phone-tr.png` });
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  },
});

Deno.test({
  name: "dashboard chat: a line sent while the hub is stopped stays in the box with a sentence",
  ...T,
  async fn() {
    const hub = await startDashboardHub({ replies: ["Hello."] });
    const browser = await launch();
    try {
      // One page in English, one in Turkish, both open when the hub stops.
      const pages: Page[] = [];
      for (const lang of ["en", "tr"]) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        await page.goto(await hub.loginUrl());
        await ready(page);
        await page.selectOption("#lang", lang);
        await page.goto(`${hub.base}/dashboard/#/conversations`);
        await ready(page);
        pages.push(page);
      }
      const [en, tr] = pages as [Page, Page];
      await hub.stop();
      await send(en, "are you there?");
      await en.waitForSelector(".send-failed:not([hidden])");
      assert.equal(await en.inputValue("#message"), "are you there?");
      assert.equal(
        await en.textContent(".send-failed"),
        "The hub is not reachable, so the message was not sent: it is back in the box. Start the hub (agent hub run) and send it again.",
      );
      assert.doesNotMatch(await en.textContent("body") ?? "", /TypeError|Failed to fetch/);
      await en.screenshot({ path: `${ARTIFACTS}chat-hub-stopped-phone-en.png` });
      await send(tr, "orada mısın?");
      await tr.waitForSelector(".send-failed:not([hidden])");
      assert.equal(await tr.inputValue("#message"), "orada mısın?");
      assert.match(await tr.textContent(".send-failed") ?? "", /^Hub'a ulaşılamıyor, bu yüzden/);
      await tr.screenshot({ path: `${ARTIFACTS}chat-hub-stopped-phone-tr.png` });
    } finally {
      await browser.close();
      await hub.stop();
    }
  },
});
