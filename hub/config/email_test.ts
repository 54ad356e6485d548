import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { ConfigError } from "./error.ts";

const ROLES = '[models.roles.brain]\nprovider = "fake"\nmodel_id = "m"\n';
const EMAIL = [
  "[email]",
  'address = "Agent@Example.com"',
  'imap_host = "imap.example.com"',
  'smtp_host = "smtp.example.com"',
  'owner = "me@example.com"',
  'authserv_id = "mx.example.com"',
].join("\n");

function errorOf(text: string, lang: "en" | "tr" = "en"): string {
  try {
    parseConfig(text, "agent.toml", { lang });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  throw new Error("parseConfig() accepted the text");
}

Deno.test("parseConfig() leaves [email] out when the table is not there", () => {
  assert.equal(parseConfig(ROLES, "agent.toml").email, undefined);
});

Deno.test("parseConfig() fills [email] defaults: implicit TLS ports, INBOX, idle, 20 an hour", () => {
  const email = parseConfig(`${ROLES}${EMAIL}\n`, "agent.toml").email;
  assert.deepEqual(email, {
    address: "agent@example.com",
    imap_host: "imap.example.com",
    imap_port: 993,
    smtp_host: "smtp.example.com",
    smtp_port: 465,
    tls: "implicit",
    owner: "me@example.com",
    allowed_senders: [],
    authserv_id: "mx.example.com",
    trust_from: false,
    folder: "INBOX",
    done_folder: "",
    mode: "idle",
    poll_seconds: 60,
    max_per_hour: 20,
    footer: true,
    attachment_kb: 64,
  });
  const starttls = parseConfig(`${ROLES}${EMAIL}\ntls = "starttls"\n`, "agent.toml").email;
  assert.deepEqual([starttls?.imap_port, starttls?.smtp_port], [143, 587]);
});

Deno.test("parseConfig() takes tls = none for loopback hosts only, in one sentence (en, tr)", () => {
  const loopback = `${ROLES}[email]\naddress = "a@example.com"\nimap_host = "127.0.0.1"\n` +
    `smtp_host = "localhost"\nowner = "o@example.com"\ntls = "none"\ntrust_from = true\n`;
  assert.equal(parseConfig(loopback, "agent.toml").email?.smtp_port, 25);
  const remote = `${ROLES}${EMAIL}\ntls = "none"\n`;
  assert.equal(
    errorOf(remote),
    `agent.toml: [email] tls = "none" sends the password in the clear, so it is accepted for a server on this machine only, and 'imap_host' is 'imap.example.com'; use "starttls" or "implicit".`,
  );
  assert.match(errorOf(remote, "tr"), /yalnızca bu makinedeki bir sunucu için kabul edilir/);
});

Deno.test("parseConfig() names a missing key, a bad address, a bad port and an unknown key", () => {
  assert.equal(
    errorOf(`${ROLES}[email]\naddress = "a@example.com"\n`),
    "agent.toml: [email] needs 'imap_host'.",
  );
  assert.equal(
    errorOf(`${ROLES}${EMAIL}\nallowed_senders = ["friend at example.org"]\n`),
    "agent.toml: [email] 'allowed_senders' has 'friend at example.org', which is not an e-mail address such as name@example.com.",
  );
  assert.equal(
    errorOf(`${ROLES}${EMAIL}\nimap_port = 0\n`),
    "agent.toml: [email] 'imap_port' must be a whole number from 1 to 65535.",
  );
  assert.equal(
    errorOf(`${ROLES}${EMAIL}\nmode = "push"\n`),
    "agent.toml: [email] 'mode' must be one of idle, poll.",
  );
  assert.equal(
    errorOf(`${ROLES}${EMAIL}\npassword = "x"\n`),
    "agent.toml: [email] has an unknown key 'password'. It takes: address, imap_host, imap_port, smtp_host, smtp_port, tls, owner, allowed_senders, authserv_id, trust_from, folder, done_folder, mode, poll_seconds, max_per_hour, footer, attachment_kb.",
  );
});

Deno.test("parseConfig() wants an authserv_id unless trust_from, and no mail to itself", () => {
  const noId = EMAIL.replace(/^authserv_id.*$/m, "");
  assert.match(errorOf(`${ROLES}${noId}\n`), /needs 'authserv_id'/);
  assert.equal(
    parseConfig(`${ROLES}${noId}\ntrust_from = true\n`, "agent.toml").email?.trust_from,
    true,
  );
  assert.match(
    errorOf(`${ROLES}${EMAIL.replace("me@example.com", "agent@example.com")}\n`),
    /'owner' is the agent's own 'address'/,
  );
  assert.match(
    errorOf(`${ROLES}${EMAIL}\ndone_folder = "INBOX"\n`, "tr"),
    /'done_folder', 'folder' ile aynı olmamalı/,
  );
});
