/**
 * An approval in the web chat is decided only by an act made for it after it was shown.
 * The person types their next lines one key at a time (spaces, Enter, `y`, `n`) while the
 * card appears: the focus stays in the message box, nothing is decided, every key lands
 * where it was typed, and the lines sent are queued and shown as queued. The card is
 * announced in a live region. A click or the shortcut in the card's first 500 ms counts
 * for nothing; after that the shortcut (Alt+Shift+Y) allows and a click on Deny denies.
 * The page's clock is held still while the second card comes, so its click and key fall in
 * its first 500 ms by the page's own time however slowly a loaded machine delivers them.
 * Screenshots of the waiting card at desktop and phone size, light and dark.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, pageApi, ready, signedIn, T } from "../dashboard/_browser.ts";

/** What the page saw: when each card appeared, and every key and click with its time. */
interface Record {
  cards: { id: string; at: number }[];
  acts: { type: string; key: string; at: number; focus: string }[];
}

/** Starts recording in the page (before the cards can appear). */
async function record(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record = { cards: [], acts: [] };
    (globalThis as unknown as { seen: Record }).seen = seen;
    new MutationObserver(() => {
      for (const card of document.querySelectorAll<HTMLElement>(".transcript [data-approval]")) {
        const id = card.dataset.approval!;
        if (!seen.cards.some((c) => c.id === id)) seen.cards.push({ id, at: performance.now() });
      }
    }).observe(document.body, { childList: true, subtree: true });
    // A disabled button gets no click event; its pointer events still come.
    for (const type of ["keydown", "pointerdown", "click"]) {
      addEventListener(type, (e) => {
        seen.acts.push({
          type,
          key: (e as KeyboardEvent).key ?? "",
          at: performance.now(),
          focus: document.activeElement?.id || document.activeElement?.tagName || "",
        });
      }, { capture: true });
    }
  });
}

async function seen(page: Page): Promise<Record> {
  return await page.evaluate(() => (globalThis as unknown as { seen: Record }).seen);
}

/** The open approvals, as the hub's desk has them. */
async function openApprovals(page: Page): Promise<{ id: string }[]> {
  return (JSON.parse((await pageApi(page, "approvals")).text) as { approvals: { id: string }[] })
    .approvals;
}

/**
 * Stops the page's time a little ahead of its now. A loaded machine once took over a second
 * between reading the page's now and stopping it ("Cannot fast-forward to the past"), so a
 * mark already passed is read again with twice the lead.
 */
async function pauseAhead(page: Page): Promise<void> {
  for (let lead = 1_000;; lead *= 2) {
    try {
      return await page.clock.pauseAt(await page.evaluate((ms) => Date.now() + ms, lead));
    } catch (e) {
      if (lead >= 16_000 || !String(e).includes("fast-forward to the past")) throw e;
    }
  }
}

Deno.test({
  name:
    "dashboard approval: typing on while the card appears decides nothing and loses nothing; only a later act decides",
  ...T,
  async fn() {
    await using hub = await startDashboardHub({
      wordMs: 5,
      replies: [
        '/tool write_note {"name":"first","text":"allowed"}',
        "Saved the first note.",
        '/tool write_note {"name":"second","text":"denied"}',
        "Did not save the second note.",
        "The last line, answered.",
      ],
    });
    const browser = await launch();
    try {
      const { context, page, problems } = await signedIn(browser, await hub.loginUrl(), {
        clock: true,
      });
      await page.goto(`${hub.base}/dashboard/#/conversations`);
      await ready(page);
      await record(page);

      // The first line starts a turn whose tool asks; the person types on at once, key by
      // key, two more lines and the start of a third, with spaces, Enter, y and n in them.
      await page.fill("#message", "please save a note");
      await page.keyboard.press("Enter");
      const lines = ["yes no y n ok then", "y n y n and one more"];
      const rest = "left in the box y n";
      for (const line of lines) {
        await page.keyboard.type(line, { delay: 45 });
        await page.keyboard.press("Enter");
      }
      await page.keyboard.type(rest, { delay: 45 });

      const during = await seen(page);
      const first = during.cards[0];
      assert.ok(first, "the card appeared");
      const keys = during.acts.filter((a) => a.type === "keydown");
      // The card came while the person was typing, and keys fell in its first 500 ms.
      assert.ok(keys[0]!.at < first.at && first.at < keys.at(-1)!.at, JSON.stringify(during));
      assert.ok(keys.some((k) => k.at >= first.at && k.at < first.at + 500), "keys in the guard");
      // Every key went to the message box: the focus never moved.
      assert.deepEqual([...new Set(keys.map((k) => k.focus))], ["message"]);
      assert.equal(await page.evaluate(() => document.activeElement?.id), "message");
      assert.equal(await page.inputValue("#message"), rest);
      // Nothing was decided: the desk still waits, the card still offers its buttons.
      assert.deepEqual((await openApprovals(page)).map((a) => a.id), [first.id]);
      assert.equal(await page.locator(".transcript [data-approval] .decided").count(), 0);
      assert.equal(await page.locator(".transcript [data-approval] button").count(), 3);
      // The lines sent meanwhile are in the transcript, queued, and the page says so.
      const users = await page.locator(".msg.user").allTextContents();
      assert.deepEqual(
        users.slice(1).map((u) =>
          u.replace(/^You · queued: answered after the current answer/, "")
        ),
        lines,
      );
      assert.ok(users.slice(1).every((u) => /queued/.test(u)), String(users));
      assert.equal(
        await page.textContent("#chat-status"),
        "waiting for your decision · 2 queued",
      );
      // The card was announced, with how to decide it.
      assert.match(
        await page.textContent("#approval-live") ?? "",
        /^Approval needed: .+ Alt\+Shift\+Y allows once, Alt\+Shift\+N denies\.$/,
      );
      assert.equal(await page.getAttribute("#approval-live", "aria-live"), "assertive");
      await page.screenshot({ path: `${ARTIFACTS}chat-approval-waiting-desktop.png` });
      await page.selectOption("#theme", "dark");
      await page.screenshot({ path: `${ARTIFACTS}chat-approval-waiting-desktop-dark.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${ARTIFACTS}chat-approval-waiting-phone-dark.png` });
      await page.selectOption("#theme", "light");
      await page.screenshot({ path: `${ARTIFACTS}chat-approval-waiting-phone.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.focus("#message");
      // The page's time stands still from here until the second card has had its early
      // acts: the first card is long past its guard, the second shows with no time gone.
      await pauseAhead(page);

      // Long after it appeared, its own shortcut allows it, from the message box.
      await page.keyboard.press("Alt+Shift+Y");
      await page.waitForSelector(".transcript [data-approval] .decided");
      assert.match(
        await page.textContent(".transcript [data-approval]") ?? "",
        /Decided: Allow once/,
      );
      assert.equal(await page.inputValue("#message"), rest, "the shortcut typed nothing");

      // The first queued line asks again. A key and a click in the new card's first
      // 500 ms count for nothing; a click after that does.
      const second = await page.waitForSelector(
        ".transcript [data-approval]:not(:has(.decided)) button[data-decision='once']",
      );
      assert.equal(await Deno.readTextFile(`${hub.home}/notes/first.md`), "allowed\n");
      // A real click where the button is (greyed: it takes none yet), then the shortcut.
      const box = (await second.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.keyboard.press("Alt+Shift+Y");
      const early = await seen(page);
      const card = early.cards.find((c) => c.id !== first.id)!;
      const acts = early.acts.filter((a) => a.at >= card.at);
      assert.ok(
        acts.some((a) => a.type === "pointerdown") && acts.some((a) => a.key === "Y") &&
          acts.every((a) => a.at - card.at < 500),
        `the click and the key came within the card's first 500 ms: ${JSON.stringify(acts)}`,
      );
      // 600 ms of the page's time pass: the buttons take clicks again, nothing was decided.
      await page.clock.runFor(600);
      await page.clock.resume();
      await page.waitForFunction(() =>
        document.querySelector(".transcript")?.textContent?.includes("Saved the first note.")
      );
      assert.deepEqual((await openApprovals(page)).map((a) => a.id), [card.id]);
      assert.equal(await page.inputValue("#message"), rest);
      // A reload while it waits shows the card again, guarded afresh.
      await page.reload();
      await ready(page);
      await page.waitForSelector(`[data-approval='${card.id}'] button[data-decision='deny']`);
      assert.match(await page.textContent("#approval-live") ?? "", /^Approval needed: /);
      await page.click(`[data-approval='${card.id}'] button[data-decision='deny']`);
      await page.waitForSelector(`[data-approval='${card.id}'] .decided`);
      assert.match(await page.textContent(`[data-approval='${card.id}']`) ?? "", /Decided: Deny/);
      await page.waitForFunction(() =>
        document.querySelector(".transcript")?.textContent?.includes("The last line, answered.")
      );
      await assert.rejects(Deno.stat(`${hub.home}/notes/second.md`), Deno.errors.NotFound);
      assert.deepEqual(await openApprovals(page), []);
      // The third line, left in the box, was never sent.
      assert.ok(!(await page.textContent(".transcript") ?? "").includes(rest));
      // The status clears once the run's end arrives, just after its last words (asserted
      // at once, a loaded machine saw 'answering…' still there).
      await page.waitForFunction(() => document.querySelector("#chat-status")?.textContent === "");
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
