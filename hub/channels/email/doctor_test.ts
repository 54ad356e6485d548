import assert from "node:assert/strict";
import { parseConfig } from "../../config/parse.ts";
import type { DoctorContext } from "../../doctor/types.ts";
import { emailCheck } from "./doctor.ts";

const ROLE = '[models.roles.brain]\nprovider = "fake"\nmodel_id = "m"\n';

function context(email: string, env: Record<string, string>, lang: "en" | "tr" = "en") {
  return {
    config: parseConfig(`${ROLE}[email]\n${email}\n`, "agent.toml"),
    env,
    lang,
  } as unknown as DoctorContext;
}

const REMOTE = [
  'address = "agent@example.com"',
  'imap_host = "imap.example.com"',
  'smtp_host = "smtp.example.com"',
  'owner = "me@example.com"',
].join("\n");

Deno.test("emailCheck() names the servers, fails without a password, warns of trust_from on a remote host", async () => {
  assert.deepEqual(
    await emailCheck(
      context(`${REMOTE}\nauthserv_id = "mx.example.com"`, { EMAIL_PASSWORD: "pw" }),
    ),
    [{
      name: "email",
      status: "ok",
      detail:
        "agent@example.com: IMAP imap.example.com:993, SMTP smtp.example.com:465, TLS implicit; answers the owner and 0 other sender(s)",
    }],
  );
  assert.deepEqual(await emailCheck(context(`${REMOTE}\nauthserv_id = "mx.example.com"`, {})), [{
    name: "email",
    status: "fail",
    detail:
      "[email] is set but EMAIL_PASSWORD is not in .env, so the e-mail channel does not start",
  }]);
  const trusting = await emailCheck(
    context(`${REMOTE}\ntrust_from = true`, { EMAIL_PASSWORD: "pw" }),
  );
  assert.equal(trusting[1]?.status, "warn");
  assert.match(
    trusting[1]!.detail,
    /^trust_from = true takes every From: line as proven, and imap\.example\.com is not on this machine/,
  );
  const local = [
    'address = "agent@example.com"',
    'imap_host = "127.0.0.1"',
    'smtp_host = "localhost"',
    'owner = "me@example.com"',
    "trust_from = true",
  ].join("\n");
  assert.equal((await emailCheck(context(local, { EMAIL_PASSWORD: "pw" }))).length, 1);
  const tr = await emailCheck(
    context(`${REMOTE}\ntrust_from = true`, { EMAIL_PASSWORD: "pw" }, "tr"),
  );
  assert.match(tr[1]!.detail, /herkes sahibiniz gibi yazabilir/);
});
