/**
 * The dashboard's web chat in headless Chromium over a real hub with the fake model: a
 * streamed answer over the desk, an approval decided on the Approvals page (a second
 * decision refused), type-ahead queued, cancel, search, and a model answer holding
 * `<script>` and `<img onerror>` shown as text. The Approvals page says when a request
 * expires, links its conversation, and the navigation counts what waits, live (issue
 * 39, W15).
 */
import assert from "node:assert/strict";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, launch, pageApi, ready, T, watch } from "../dashboard/_browser.ts";

Deno.test({
  name:
    "dashboard chat: a streamed answer over the desk, an approval decided on the Approvals page, type-ahead queued, cancel, and a model's <script> shown as text",
  ...T,
  async fn() {
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(" ");
    await using hub = await startDashboardHub({
      wordMs: 15,
      replies: [
        '/tool write_note {"name":"web","text":"from the web"}',
        'Saved. <script>window.__pwned=1</script> <img src=x onerror="window.__pwned=2"> **bold** [x](javascript:alert(1))',
        "Second answer.",
        long,
      ],
    });
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const chat = await context.newPage();
      const problems = watch(chat);
      await chat.goto(await hub.loginUrl());
      await ready(chat);
      const approvalsPage = await context.newPage();
      await approvalsPage.goto(`${hub.base}/dashboard/#/approvals`);
      await ready(approvalsPage);
      assert.match(await approvalsPage.textContent("main") ?? "", /Nothing waits for a decision/);

      await chat.goto(`${hub.base}/dashboard/#/conversations`);
      await ready(chat);
      await chat.fill("#message", "please save a note");
      await chat.keyboard.press("Enter");
      // The approval shows in the chat and on the Approvals page.
      await chat.waitForSelector(".transcript [data-approval] button[data-decision='once']");
      await approvalsPage.waitForSelector("[data-approval] button[data-decision='once']");
      // The card says when it expires (HH:MM, Istanbul) and links its conversation.
      const [open] = JSON.parse((await pageApi(approvalsPage, "approvals")).text).approvals;
      const expires = new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/Istanbul",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(Date.parse(open.expiresAt));
      const cardText = await approvalsPage.textContent("[data-approval]") ?? "";
      assert.ok(cardText.includes(`expires at ${expires}`), cardText);
      const asking = decodeURIComponent(new URL(chat.url()).hash.split("/")[2] ?? "");
      assert.ok(asking !== "", chat.url());
      assert.equal(
        await approvalsPage.getAttribute("[data-approval] a.to-conversation", "href"),
        `#/conversations/${encodeURIComponent(asking)}`,
      );
      // The navigation of every page counts what waits, live from the desk stream.
      for (const tab of [chat, approvalsPage]) {
        await tab.waitForFunction(() =>
          document.querySelector("#approvals-count:not([hidden])")?.textContent ===
            "11 waiting for a decision"
        );
      }
      await approvalsPage.screenshot({ path: `${ARTIFACTS}approvals-desktop.png` });
      await approvalsPage.setViewportSize({ width: 390, height: 844 });
      await approvalsPage.screenshot({ path: `${ARTIFACTS}approvals-phone.png` });
      await approvalsPage.selectOption("#lang", "tr");
      await ready(approvalsPage);
      await approvalsPage.waitForSelector("[data-approval] a.to-conversation");
      const turkish = await approvalsPage.textContent("body") ?? "";
      assert.ok(turkish.includes(`${expires} saatinde süresi dolar`), turkish);
      assert.ok(turkish.includes("Konuşmayı aç"), turkish);
      assert.ok(turkish.includes("1 karar bekliyor"), turkish);
      await approvalsPage.screenshot({ path: `${ARTIFACTS}approvals-phone-tr.png` });
      await approvalsPage.selectOption("#lang", "en");
      await ready(approvalsPage);
      await approvalsPage.setViewportSize({ width: 1280, height: 800 });
      // Typed while the answer waits: queued.
      await chat.fill("#message", "and then this");
      await chat.keyboard.press("Enter");
      await chat.waitForFunction(() =>
        document.getElementById("chat-status")?.textContent?.includes("1 queued")
      );
      await chat.screenshot({ path: `${ARTIFACTS}chat-approval-desktop.png` });
      // Decided on the other page first: the chat's card says so.
      await approvalsPage.click("[data-approval] button[data-decision='once']");
      await chat.waitForSelector(".transcript [data-approval] .decided");
      assert.match(
        await chat.textContent(".transcript [data-approval]") ?? "",
        /Decided: Allow once/,
      );
      await approvalsPage.waitForSelector("[data-approval] .decided");
      // Decided: the count leaves the navigation.
      for (const tab of [chat, approvalsPage]) {
        await tab.waitForSelector("#approvals-count[hidden]", { state: "attached" });
      }
      // A second decision is refused by the desk: the approval is no longer open.
      const again = await pageApi(chat, "approvals/decide", {
        method: "POST",
        body: {
          id: await chat.getAttribute(".transcript [data-approval]", "data-approval"),
          decision: "deny",
        },
      });
      assert.deepEqual(JSON.parse(again.text), { decided: false });

      // The answer, as text: no script ran, no image element, bold rendered, no js: link.
      await chat.waitForFunction(
        () =>
          [...document.querySelectorAll(".msg.assistant")].some((m) =>
            m.textContent?.includes("Second answer.")
          ),
        undefined,
        { timeout: 15_000 },
      );
      const first = chat.locator(".msg.assistant").filter({ hasText: "Saved." });
      const text = await first.textContent() ?? "";
      assert.ok(text.includes("<script>window.__pwned=1</script>"), text);
      assert.ok(text.includes('<img src=x onerror="window.__pwned=2">'), text);
      assert.equal(await first.locator("strong").textContent(), "bold");
      assert.equal(await chat.locator(".transcript img, .transcript script").count(), 0);
      assert.equal(await first.locator("a").count(), 0);
      assert.equal(
        await chat.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
        undefined,
      );
      // Each answer ends with its model, tokens and cost.
      await chat.waitForSelector(".msg.assistant .meta");
      assert.match(
        await chat.locator(".msg.assistant .meta").first().textContent() ?? "",
        /^fake-brain · \d+ in \/ \d+ out · \$\d+\.\d\d/,
      );
      const session = decodeURIComponent(new URL(chat.url()).hash.split("/")[2] ?? "");
      assert.match(session, /^web-\d{8}-\d{6}-[0-9a-f]{4}$/);

      // A long answer cancelled halfway.
      await chat.fill("#message", "tell me a long story");
      await chat.keyboard.press("Enter");
      await chat.waitForFunction(() =>
        [...document.querySelectorAll(".msg.assistant")].some((m) =>
          m.textContent?.includes("word20")
        )
      );
      await chat.click("#cancel");
      await chat.waitForFunction(() =>
        [...document.querySelectorAll(".msg.assistant .meta")].some((m) =>
          m.textContent === "cancelled"
        )
      );
      const cancelled = await chat.locator(".msg.assistant").last().textContent() ?? "";
      assert.ok(!cancelled.includes("word299"), "the answer stopped");

      // The session is listed, and its transcript loads from the store.
      await chat.reload();
      await ready(chat);
      await chat.waitForSelector(`.list button[aria-current='true']`);
      const transcript = await chat.textContent(".transcript") ?? "";
      assert.ok(transcript.includes("please save a note"));
      assert.ok(transcript.includes("<script>window.__pwned=1</script>"));
      // Searching finds the session by what was said in it.
      await chat.fill("#search", "SAVE A NOTE");
      await chat.waitForFunction(
        (id) =>
          [...document.querySelectorAll(".list li button")].map((b) => b.textContent ?? "")
            .some((t) => t.startsWith(id)),
        session,
      );
      await chat.fill("#search", "nothing-like-this");
      await chat.waitForFunction(() => document.querySelectorAll(".list li button").length === 0);
      // An empty result names the search, not an empty history (issue 39, W21).
      assert.equal(
        await chat.textContent(".list li.muted"),
        "No session matches “nothing-like-this”.",
      );
      await chat.setViewportSize({ width: 390, height: 844 });
      await chat.screenshot({ path: `${ARTIFACTS}chat-search-empty-phone.png` });
      await chat.setViewportSize({ width: 1280, height: 800 });
      await chat.screenshot({ path: `${ARTIFACTS}chat-search-empty-desktop.png` });
      await chat.selectOption("#lang", "tr");
      await ready(chat);
      await chat.fill("#search", "nothing-like-this");
      await chat.waitForFunction(() =>
        document.querySelector(".list li.muted")?.textContent ===
          "“nothing-like-this” ile eşleşen oturum yok."
      );
      await chat.selectOption("#lang", "en");
      await ready(chat);
      await chat.fill("#search", "");
      await chat.setViewportSize({ width: 390, height: 844 });
      await chat.screenshot({ path: `${ARTIFACTS}chat-phone.png`, fullPage: true });
      assert.deepEqual(problems, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
