/**
 * The dashboard beside the e-mail channel, on a hub (in the test's process, as `agent
 * hub run` starts it: the process is not the point here; `tests/email/` runs it as
 * one), a real Dovecot and a loopback SMTP server: the overview's e-mail line
 * (connected, mode, address, last mail), in English and Turkish, and an approval asked
 * in the owner's mail decided on the Approvals page, after which the answer goes out in
 * the thread.
 */
import assert from "node:assert/strict";
import { CHROMIUM, launch } from "../dashboard/_browser.ts";
import { cleanup } from "../cli/_run.ts";
import { hasDovecot, startDovecot } from "../email/_dovecot.ts";
import { startSmtp } from "../email/_smtp.ts";
import { mailText } from "../email/_mails.ts";
import { AGENT, emailHome, OWNER, OWNER_PROVEN, PASSWORD, runEmailHubHere } from "../email/_hub.ts";
import { until } from "../_poll.ts";
import { controlFetch } from "../_control.ts";

Deno.test({
  name: "dashboard + e-mail: the overview's e-mail line, and a mail's approval decided here",
  ignore: CHROMIUM === undefined || !hasDovecot(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dovecot = await startDovecot([{ name: AGENT, password: PASSWORD }]);
    const smtp = await startSmtp(AGENT, PASSWORD);
    const { home, port } = await emailHome(dovecot, smtp, {
      replies: ['/tool write_note {"name":"mail","text":"from a mail"}', "Saved it."],
    });
    const hub = await runEmailHubHere(home, port);
    const browser = await launch();
    try {
      await dovecot.deliver(
        AGENT,
        mailText({
          from: OWNER,
          subject: "note",
          id: "<d1@example.com>",
          authResults: [OWNER_PROVEN],
          body: "Save a note, please.",
        }),
      );
      await until("the waiting mail", () => smtp.received.length === 1);

      // A one-time code as `agent dashboard` asks for it; the page trades it for its
      // session token (kept in the tab's sessionStorage, sent as X-Agent-Session).
      const login = async () => {
        const res = await controlFetch(port, "/dashboard/code", { method: "POST" });
        return (await res.json() as { code: string }).code;
      };
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`http://127.0.0.1:${port}/dashboard/#code=${await login()}`);
      await page.waitForSelector("main[data-ready='true']");
      // Signed in without a cookie (a cookie for 127.0.0.1 reaches every port of it).
      assert.deepEqual(await page.context().cookies(), []);
      assert.match(
        await page.textContent("#email-line") ?? "",
        /^E-mail: connected \(idle\) as agent@example\.test, last mail \d\d\.\d\d\.\d{4} \d\d:\d\d$/,
      );
      const shot = Deno.env.get("AGENT_SCREENSHOTS");
      if (shot) await page.screenshot({ path: `${shot}/dashboard_email_en.png`, fullPage: true });

      await page.goto(`http://127.0.0.1:${port}/dashboard/#/approvals`);
      await page.waitForSelector("[data-approval] button[data-decision='once']");
      assert.match(await page.textContent("[data-approval]") ?? "", /email:<d1@example\.com>/);
      await page.click("[data-approval] button[data-decision='once']");
      await page.waitForSelector("[data-approval] .decided");
      await until("the answer", () => smtp.received.length === 2);
      assert.equal(smtp.received[1]!.mail.inReplyTo, "<d1@example.com>");
      assert.match(smtp.received[1]!.mail.text, /^Saved it\./);

      // Turkish.
      await page.evaluate(() => localStorage.setItem("lang", "tr"));
      await page.goto(`http://127.0.0.1:${port}/dashboard/#/overview`);
      await page.reload();
      await page.waitForSelector("main[data-ready='true']");
      assert.match(
        await page.textContent("#email-line") ?? "",
        /^E-posta: bağlı \(idle\), agent@example\.test olarak, son posta \d\d\.\d\d\.\d{4} \d\d:\d\d$/,
      );
      if (shot) await page.screenshot({ path: `${shot}/dashboard_email_tr.png`, fullPage: true });
      await page.close();
    } finally {
      await browser.close();
      await hub.stop();
      await smtp.stop();
      await dovecot.stop();
      await cleanup();
    }
  },
});
