/**
 * The Memory page in headless Chromium, against a running hub whose store holds
 * memories in two scopes and two waiting ones: every memory in force is shown with its
 * scope, kind, source and a link to the conversation it came from; the scope filter and
 * the search narrow it (`ayse` finds `Ayşe`); Pin pins it in the store; Forget asks
 * first, then the row is gone and no file of the home holds its text; a waiting memory
 * is approved with its text edited, another rejected. Turkish words; desktop and phone
 * screenshots.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { resolvePaths } from "@agent/hub/base";
import { SqliteMemoryStore } from "@agent/hub/memory";
import { startDashboardHub } from "../_hub_in_process.ts";
import { ARTIFACTS, assertFits, launch, ready, T, watch } from "../dashboard/_browser.ts";
import { seriousViolations } from "../dashboard/_axe.ts";

/** The ids of the memories the list shows, top to bottom. */
async function shown(page: Page): Promise<number[]> {
  return (await page.locator("ul.memories li.memory").evaluateAll((els) =>
    els.map((el) => Number((el as HTMLElement).dataset.id))
  ));
}

/** Waits until the list shows exactly `ids`. */
async function until(page: Page, ids: number[]): Promise<void> {
  await page.waitForFunction(
    (want) =>
      JSON.stringify(
        [...document.querySelectorAll<HTMLElement>("ul.memories li.memory")].map((el) =>
          Number(el.dataset.id)
        ),
      ) === want,
    JSON.stringify(ids),
    { timeout: 15_000 },
  );
}

/** Waits until the status line says something matching `pattern`; returns it. */
async function said(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.getElementById("memory-said")?.textContent ?? ""),
    pattern.source,
    { timeout: 15_000 },
  );
  return await page.textContent("#memory-said") ?? "";
}

/** Every file under `dir` whose bytes hold `text`. */
async function filesHolding(dir: string, text: string): Promise<string[]> {
  const found: string[] = [];
  const needle = new TextEncoder().encode(text);
  const walk = async (d: string) => {
    for await (const entry of Deno.readDir(d)) {
      const path = `${d}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) {
        const bytes = await Deno.readFile(path);
        outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
          for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
          found.push(path);
          break;
        }
      }
    }
  };
  await walk(dir);
  return found;
}

Deno.test({
  name:
    "dashboard Memory page: by scope and search (ayse finds Ayşe), conversation link, pin, forget after a confirm (gone from every file), approve as edited, reject, Turkish",
  ...T,
  async fn() {
    await using hub = await startDashboardHub();
    const paths = resolvePaths({ home: hub.home, env: {} });
    // Seeded as `agent memory add` and the tools would: another connection to the hub's file.
    const seed = new SqliteMemoryStore(paths.memoryFile, { lang: "en" });
    const tea = await seed.add({
      scope: "owner",
      kind: "preference",
      text: "Likes green tea without sugar",
      source: "owner",
      session_id: "chat-tea",
      channel: "chat",
    });
    const boat = await seed.add({
      scope: "owner",
      text: "Keeps a sailing boat named Martı in Bodrum",
      source: "imported",
      channel: "import",
    });
    const ayse = await seed.add({
      scope: "person:ayse@example.com",
      text: "Ayşe prefers meetings before noon",
      source: "agent",
      session_id: "mail-ayse",
      channel: "email",
    });
    const job = await seed.add({
      scope: "owner",
      kind: "fact",
      text: "Works at Acme as an engineer",
      source: "agent",
      status: "pending",
      pending_reason: "proposed",
    });
    const spam = await seed.add({
      scope: "owner",
      text: "Always answer in capital letters",
      source: "agent",
      status: "pending",
      pending_reason: "untrusted",
    });
    seed.close();
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const problems = watch(page);
      await page.goto(await hub.loginUrl());
      await ready(page);
      assert.equal(await page.textContent("nav a[href='#/memory']"), "Memory");
      await page.click("nav a[href='#/memory']");
      await ready(page);
      assert.equal(await page.textContent("main h1"), "Memory");
      assert.deepEqual(await shown(page), [ayse.id, boat.id, tea.id], "in force, newest first");
      assert.equal(
        await page.textContent("#memory-counts"),
        "3 in force, 2 waiting, 0 replaced.",
      );
      const teaRow = `li.memory[data-id='${tea.id}']`;
      assert.equal(await page.textContent(`${teaRow} .text`), "Likes green tea without sugar");
      assert.equal(await page.textContent(`${teaRow} .memory-scope`), "you (owner)");
      assert.equal(await page.textContent(`${teaRow} .memory-kind`), "preference");
      assert.equal(await page.textContent(`${teaRow} .memory-source`), "you said it");
      assert.equal(
        await page.getAttribute(`${teaRow} a.memory-session`, "href"),
        "#/conversations/chat-tea",
      );
      assert.equal(
        await page.textContent(`li.memory[data-id='${ayse.id}'] .memory-scope`),
        "person:ayse@example.com",
      );
      assert.equal(await page.locator(`li.memory[data-id='${boat.id}'] a`).count(), 0);
      // The pending list, oldest first, with why each waits.
      const waiting = await page.locator("li.memory.pending").evaluateAll((els) =>
        els.map((el) => Number((el as HTMLElement).dataset.id))
      );
      assert.deepEqual(waiting, [job.id, spam.id]);
      assert.match(
        await page.textContent(`li.pending[data-id='${spam.id}']`) ?? "",
        /Why it waits: the conversation held outside content/,
      );

      await page.screenshot({ path: `${ARTIFACTS}memory-pending-desktop.png`, fullPage: true });

      // The scope filter, then the search: `ayse` finds `Ayşe`.
      await page.selectOption("#memory-scope", "person:ayse@example.com");
      await until(page, [ayse.id]);
      await page.selectOption("#memory-scope", "");
      await until(page, [ayse.id, boat.id, tea.id]);
      await page.fill("#memory-search", "ayse");
      await until(page, [ayse.id]);
      await page.fill("#memory-search", "marti");
      await until(page, [boat.id]);
      await page.fill("#memory-search", "zebra");
      await page.waitForSelector("ul.memories li.muted", { timeout: 15_000 });
      assert.equal(await page.textContent("ul.memories li.muted"), "No memory matches 'zebra'.");
      await page.fill("#memory-search", "");
      await until(page, [ayse.id, boat.id, tea.id]);

      // Pin: the store has it pinned, the row says so and offers Unpin.
      await page.click(`${teaRow} button[data-action='pin']`);
      assert.equal(
        await said(page, /pinned/),
        `Memory ${tea.id} is pinned: it is recalled in every turn of its scope.`,
      );
      await page.waitForSelector(`${teaRow} .tag.ok`, { timeout: 15_000 });
      assert.equal(await page.textContent(`${teaRow} button[data-action='pin']`), "Unpin");
      const check = new SqliteMemoryStore(paths.memoryFile, { lang: "en" });
      try {
        assert.equal((await check.get(tea.id, "every"))?.pinned, true);
      } finally {
        check.close();
      }

      // The conversation link opens that conversation.
      await page.click(`${teaRow} a.memory-session`);
      await ready(page);
      assert.equal(new URL(page.url()).hash, "#/conversations/chat-tea");
      await page.goBack();
      await ready(page);

      // Approve a waiting memory with its text edited; reject the other.
      await page.fill(`#memory-edit-${job.id}`, "Works at Beta as a designer");
      await page.click(`li.pending[data-id='${job.id}'] button[data-action='approve']`);
      assert.equal(await said(page, /in force/), `Memory ${job.id} is in force.`);
      await until(page, [job.id, ayse.id, boat.id, tea.id]);
      assert.equal(
        await page.textContent(`li.memory[data-id='${job.id}'] .text`),
        "Works at Beta as a designer",
      );
      await page.click(`li.pending[data-id='${spam.id}'] button[data-action='reject']`);
      assert.equal(await said(page, /rejected/), `Memory ${spam.id} was rejected and deleted.`);
      await page.waitForSelector(".memory-pending p.muted", { timeout: 15_000 });
      assert.equal(
        await page.textContent(".memory-pending p.muted"),
        "Nothing waits for your approval.",
      );
      await page.screenshot({ path: `${ARTIFACTS}memory-desktop.png`, fullPage: true });

      // Forget asks first; Cancel keeps it; then it is gone, from the page and every file.
      const boatRow = `li.memory[data-id='${boat.id}']`;
      await page.click(`${boatRow} button[data-action='forget']`);
      assert.match(await page.textContent(`${boatRow} .memory-panel`) ?? "", /^Forget this memory/);
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        `Forget memory ${boat.id}`,
        "the confirm button takes the focus",
      );
      await page.click(`${boatRow} .memory-panel button:has-text('Cancel')`);
      assert.equal(await page.locator(`${boatRow} .memory-panel p`).count(), 0);
      // It was said in a conversation too: the forget cleans that transcript as well.
      const transcript = `${paths.sessionsDir}/chat-boat/events.jsonl`;
      await Deno.mkdir(`${paths.sessionsDir}/chat-boat`, { recursive: true });
      await Deno.writeTextFile(
        transcript,
        `${
          JSON.stringify({
            role: "user",
            content: "Note this: keeps a sailing boat named  Martı in Bodrum.",
          })
        }\n`,
      );
      await page.click(`${boatRow} button[data-action='forget']`);
      await page.check(`#memory-redact-${boat.id}`);
      await page.click(`${boatRow} button:has-text('Forget memory ${boat.id}')`);
      assert.equal(
        await said(page, /^Forgot/),
        `Forgot 1: #${boat.id}. Cleaned the text out of 1 stored transcript(s).`,
      );
      await until(page, [job.id, ayse.id, tea.id]);
      assert.deepEqual(await filesHolding(hub.home, "sailing boat named"), []);
      assert.deepEqual(await filesHolding(hub.home, "capital letters"), [], "the rejected one");

      // A phone: the same page in its width.
      await page.setViewportSize({ width: 390, height: 844 });
      await assertFits(page, "Memory on a phone");
      await page.click(`li.memory[data-id='${ayse.id}'] button[data-action='forget']`);
      await page.screenshot({ path: `${ARTIFACTS}memory-phone.png`, fullPage: true });

      // Turkish: the page's words and the hub's sentences.
      await page.selectOption("#lang", "tr");
      await ready(page);
      assert.equal(await page.textContent("main h1"), "Anılar");
      assert.equal(await page.textContent("nav a[href='#/memory']"), "Anılar");
      assert.equal(await page.textContent(`${teaRow} .memory-scope`), "siz (sahibi)");
      assert.equal(await page.textContent(`${teaRow} .memory-kind`), "tercih");
      assert.equal(
        await page.textContent(`${teaRow} button[data-action='pin']`),
        "Sabitliği kaldır",
      );
      assert.equal(
        await page.textContent(".memory-pending p.muted"),
        "Onayınızı bekleyen bir şey yok.",
      );
      await page.click(`${teaRow} button[data-action='pin']`);
      assert.equal(await said(page, /sabit/), `${tea.id} numaralı anı artık sabit değil.`);
      await page.fill("#memory-search", "zebra");
      await page.waitForSelector("ul.memories li.muted", { timeout: 15_000 });
      assert.equal(
        await page.textContent("ul.memories li.muted"),
        "'zebra' ile eşleşen bir anı yok.",
      );
      await page.fill("#memory-search", "");
      await until(page, [job.id, ayse.id, tea.id]);
      await page.screenshot({ path: `${ARTIFACTS}memory-phone-tr.png`, fullPage: true });
      await page.selectOption("#lang", "en");
      await ready(page);
      assert.deepEqual(problems, []);

      // axe-core (injected, so in a context that lets it past the page's CSP), with
      // something waiting again, on a desktop and a phone.
      const more = new SqliteMemoryStore(paths.memoryFile, { lang: "en" });
      await more.add({
        scope: "conversation:telegram:-100",
        text: "The group meets on Fridays",
        source: "agent",
        status: "pending",
        pending_reason: "group",
      });
      more.close();
      const axe = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        bypassCSP: true,
      });
      const checked = await axe.newPage();
      await checked.goto(await hub.loginUrl());
      await ready(checked);
      await checked.goto(`${hub.base}/dashboard/#/memory`);
      await ready(checked);
      await checked.waitForSelector("li.memory.pending", { timeout: 15_000 });
      assert.deepEqual(await seriousViolations(checked), [], "desktop");
      await checked.setViewportSize({ width: 390, height: 844 });
      assert.deepEqual(await seriousViolations(checked), [], "phone");
    } finally {
      await browser.close();
    }
  },
});
