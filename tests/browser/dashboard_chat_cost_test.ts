/**
 * The web chat's cost lines and its session list (issue 39, W20): the last answer's
 * model, tokens and dollars show in full below it once they arrive (they come after the
 * answer, and the transcript did not scroll to them), a call whose usage never came is
 * marked estimated, in English and Turkish, and a session begun in another tab joins
 * the list without a reload. Screenshots at 1280×800 and 390×844, light and dark.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, ready, T, watch } from "../dashboard/_browser.ts";

/** Whether the last answer's cost line shows whole inside the transcript's scrolled view. */
async function lastMetaInView(page: Page): Promise<boolean> {
  return await page.evaluate(() => {
    const transcript = document.querySelector(".transcript")!;
    const metas = transcript.querySelectorAll(".msg.assistant .meta");
    const meta = metas[metas.length - 1];
    if (!meta) return false;
    const box = transcript.getBoundingClientRect();
    const line = meta.getBoundingClientRect();
    return line.top >= box.top - 0.5 && line.bottom <= box.bottom + 0.5;
  });
}

/** Sends `text` and waits until a cost line follows the answer it starts. */
async function ask(page: Page, text: string, cancelAt?: string): Promise<string> {
  const before = await page.locator(".msg.assistant .meta").count();
  await page.fill("#message", text);
  await page.keyboard.press("Enter");
  if (cancelAt !== undefined) {
    await page.waitForFunction(
      (word) => document.querySelector(".transcript")?.textContent?.includes(word),
      cancelAt,
    );
    await page.click("#cancel");
  }
  // A cancelled answer gets two lines: "cancelled", then its cost. The longest answer
  // streams in ~4 s; two suites at once on 2 cores took more than 20 s for one.
  const want = before + (cancelAt === undefined ? 1 : 2);
  await page.waitForFunction(
    (n) => document.querySelectorAll(".msg.assistant .meta").length >= n,
    want,
    { timeout: 60_000 },
  );
  return await page.locator(".msg.assistant .meta").last().textContent() ?? "";
}

const paragraphs = (n: number) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i}: a line of the answer.`).join("\n\n");
const story = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");

Deno.test({
  name:
    "dashboard chat: the last answer's cost line shows whole, an estimated cost is marked (en, tr), a session begun elsewhere joins the list live",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({
      wordMs: 10,
      replies: [
        paragraphs(40),
        story,
        paragraphs(30),
        story,
        paragraphs(20),
        "A new conversation.",
      ],
    });
    const browser = await launch();
    try {
      await Deno.mkdir(ARTIFACTS, { recursive: true });
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const chat = await context.newPage();
      const problems = watch(chat);
      // The cost line is asked for once the answer ends; a hub that takes a moment to
      // answer (a busy ledger, a slow link) is what left it below the scrolled view. On
      // loopback the answer often came before the transcript's last scroll had run.
      await chat.route("**/dashboard/api/usage?*", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await route.continue();
      });
      await chat.goto(await hub.loginUrl());
      await ready(chat);
      const other = await context.newPage();
      await other.goto(`${hub.base}/dashboard/#/conversations`);
      await ready(other);
      await chat.goto(`${hub.base}/dashboard/#/conversations`);
      await ready(chat);

      // A long answer fills the transcript; its cost line, arriving last, is in view.
      const meta = await ask(chat, "write a lot");
      assert.match(meta, /^fake-brain · [\d,]+ in \/ [\d,]+ out · \$[\d.]+$/);
      assert.ok(await lastMetaInView(chat), "the last answer's cost line is in view");
      await chat.screenshot({ path: `${ARTIFACTS}chat-cost-desktop.png` });

      // A session begun in the first tab is in the second's list without a reload.
      const session = decodeURIComponent(new URL(chat.url()).hash.split("/")[2] ?? "");
      assert.match(session, /^web-/);
      await other.waitForFunction(
        (id) =>
          [...document.querySelectorAll(".list li button")].some((b) =>
            b.textContent?.startsWith(id)
          ),
        session,
        { timeout: 10_000 },
      );

      // Cancelled before the model reported its usage: the cost is estimated, and says so.
      const cut = await ask(chat, "tell me a story", "word30");
      assert.match(cut, /^fake-brain · [\d,]+ in \/ [\d,]+ out · \$[\d.]+ \(estimated\)$/);
      assert.ok(await lastMetaInView(chat), "the estimated cost line is in view");
      await chat.selectOption("#theme", "dark");
      await chat.screenshot({ path: `${ARTIFACTS}chat-cost-desktop-dark.png` });
      await chat.setViewportSize({ width: 390, height: 844 });
      await chat.screenshot({ path: `${ARTIFACTS}chat-cost-phone-en-dark.png` });

      // In Turkish, on a phone.
      await chat.selectOption("#lang", "tr");
      await ready(chat);
      const long = await ask(chat, "yine uzun yaz");
      assert.match(long, /^fake-brain · [\d.]+ giriş \/ [\d.]+ çıkış · \$\d+(?:\.\d{3})*,\d+$/);
      assert.ok(await lastMetaInView(chat), "in Turkish on a phone");
      const tahmini = await ask(chat, "bir hikâye anlat", "word30");
      assert.match(
        tahmini,
        /^fake-brain · [\d.]+ giriş \/ [\d.]+ çıkış · \$\d+(?:\.\d{3})*,\d+ \(tahmini\)$/,
      );
      assert.ok(await lastMetaInView(chat), "the estimated line in Turkish on a phone");
      await chat.screenshot({ path: `${ARTIFACTS}chat-cost-phone-tr-dark.png` });
      await chat.selectOption("#theme", "light");
      await chat.screenshot({ path: `${ARTIFACTS}chat-cost-phone-tr-light.png` });
      await chat.setViewportSize({ width: 1280, height: 800 });
      await chat.screenshot({ path: `${ARTIFACTS}chat-cost-desktop-tr.png` });
      await chat.selectOption("#lang", "en");
      await ready(chat);
      await chat.setViewportSize({ width: 390, height: 844 });
      await ask(chat, "once more");
      assert.ok(await lastMetaInView(chat), "in English on a phone");
      await chat.screenshot({ path: `${ARTIFACTS}chat-cost-phone-en-light.png` });
      await chat.setViewportSize({ width: 1280, height: 800 });

      // A new conversation joins the other tab's list as its answer ends.
      await chat.click("#new-chat");
      await ask(chat, "hello");
      const second = decodeURIComponent(new URL(chat.url()).hash.split("/")[2] ?? "");
      assert.notEqual(second, session);
      await other.waitForFunction(
        (id) =>
          [...document.querySelectorAll(".list li button")].some((b) =>
            b.textContent?.startsWith(id)
          ),
        second,
        { timeout: 10_000 },
      );
      await other.screenshot({ path: `${ARTIFACTS}chat-list-live-desktop.png` });
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
