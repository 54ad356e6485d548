/**
 * The `[email]` keys table of `docs/email.md` against the code: every key the parsed
 * table has, and no other, with the defaults the parser fills in.
 */
import assert from "node:assert/strict";
import { parseConfig } from "@agent/hub";
import { tableCells } from "./tables.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

Deno.test("docs/email.md lists every [email] key the parser knows, with its default", async () => {
  const markdown = await Deno.readTextFile(`${ROOT}docs/email.md`);
  const start = markdown.indexOf("| Key ");
  assert.ok(start >= 0, "the keys table is missing");
  const rows = markdown.slice(start).split("\n").slice(2).filter((line) => line.startsWith("|"));
  const documented = new Map(rows.map((row) => {
    const [key = "", value = ""] = tableCells(row);
    return [key.replaceAll("`", ""), value];
  }));
  const email = parseConfig(
    [
      '[models.roles.brain]\nprovider = "fake"\nmodel_id = "m"',
      "[email]",
      'address = "a@example.com"',
      'imap_host = "imap.example.com"',
      'smtp_host = "smtp.example.com"',
      'owner = "o@example.com"',
      'authserv_id = "mx.example.com"',
    ].join("\n"),
    "agent.toml",
  ).email!;
  assert.deepEqual([...documented.keys()].sort(), Object.keys(email).sort());
  // A default the docs name is the parser's.
  for (const [key, value] of Object.entries(email)) {
    const cell = documented.get(key)!;
    if (typeof value === "number" && !["imap_port", "smtp_port"].includes(key)) {
      assert.ok(cell.startsWith(String(value)), `${key}: '${cell}' does not start with ${value}`);
    }
    if (typeof value === "boolean") assert.equal(cell, `\`${value}\``, key);
  }
  assert.match(documented.get("imap_port")!, /^993 \(`implicit`\)/);
  assert.match(documented.get("smtp_port")!, /^465, 587 \(`starttls`\), 25/);
  assert.equal(documented.get("tls"), "`implicit`");
  assert.equal(documented.get("mode"), "`idle`");
  assert.equal(documented.get("folder"), "`INBOX`");
});
