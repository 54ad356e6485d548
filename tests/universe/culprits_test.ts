/**
 * Universe errors that name the right culprit, through the real CLI with a spine and a
 * universe on workerd: the own spine down is not blamed on the universe, a universe
 * that does not answer is said to not answer, an http universe asked over https and a
 * URL written for a host get a hint. The texts are checked in English and Turkish.
 */
import assert from "node:assert/strict";
import { agent, cleanup, tempHome } from "../cli/_run.ts";
import { startSpine } from "../spine/_harness.ts";
import { startUniverse } from "./_harness.ts";
import { freePort } from "../_port.ts";
import { initHomeAt } from "../_init_home.ts";
import { initIdentity } from "@agent/hub/network";
import { resolvePaths } from "@agent/hub/base";

const T = { sanitizeOps: false, sanitizeResources: false };

/** A home whose `[net] universe` is `universe`, with `.env` lines. */
async function home(universe: string, env: Record<string, string>): Promise<string> {
  const dir = await tempHome();
  await initHomeAt(dir);
  const toml = (await Deno.readTextFile(`${dir}/agent.toml`))
    .replace(/^universe = ""$/m, `universe = "${universe}"`);
  await Deno.writeTextFile(`${dir}/agent.toml`, toml);
  await Deno.writeTextFile(
    `${dir}/.env`,
    Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(""),
    { mode: 0o600 },
  );
  // As `agent net init` makes it (that command is not what this file tests).
  await initIdentity(resolvePaths({ home: dir, env: {} }), {});
  return dir;
}

/** `agent net universe ACTION` in `lang`: its exit code and its one sentence. */
async function universe(dir: string, action: string, lang: "en" | "tr") {
  const r = await agent(["--home", dir, "net", "universe", action], {
    env: { AGENT_LANG: lang },
  });
  return { code: r.code, text: (r.stdout + r.stderr).trim().split("\n").at(-1)! };
}

Deno.test({
  name: "universe errors name the culprit: own spine, no answer, http for https, a URL for a host",
  ...T,
  async fn() {
    const world = await startUniverse();
    const spine = await startSpine({ hubToken: "tok" });
    try {
      // The own spine is down: the universe is never asked, and never blamed.
      const deadSpine = `http://127.0.0.1:${freePort()}`;
      const down = await home(world.host, {
        AGENT_SPINE_URL: deadSpine,
        AGENT_SPINE_TOKEN: "tok",
        AGENT_NET_ALLOW_INSECURE: "1",
      });
      let r = await universe(down, "join", "en");
      assert.equal(r.code, 1);
      assert.match(
        r.text,
        new RegExp(
          `^Your own spine ${deadSpine} does not answer \\(PUT /hub/card: connection refused\\), so the universe ${
            world.host.replace(/\./g, "\\.")
          } was not asked; start the spine, or check AGENT_SPINE_URL in \\.env\\.$`,
        ),
      );
      r = await universe(down, "status", "tr");
      assert.match(
        r.text,
        /^Kendi spine'ınız .* yanıt vermiyor \(.*\), bu yüzden .* evrenine sorulmadı;/,
      );

      // The universe does not answer.
      const nowhere = `127.0.0.1:${freePort()}`;
      const silent = await home(nowhere, {
        AGENT_SPINE_URL: spine.url,
        AGENT_SPINE_TOKEN: "tok",
        AGENT_NET_ALLOW_INSECURE: "1",
      });
      r = await universe(silent, "join", "en");
      assert.equal(r.code, 1);
      assert.match(
        r.text,
        new RegExp(
          `^The universe ${nowhere} does not answer \\(.+\\); check \\[net\\] universe in agent\\.toml and the connection\\.$`,
        ),
      );
      r = await universe(silent, "join", "tr");
      assert.match(r.text, new RegExp(`^${nowhere} evreni yanıt vermiyor \\(`));

      // An http universe asked over https (no AGENT_NET_ALLOW_INSECURE): a hint.
      const plain = await home(world.host, {
        AGENT_SPINE_URL: spine.url,
        AGENT_SPINE_TOKEN: "tok",
      });
      r = await universe(plain, "join", "en");
      assert.deepEqual(r, {
        code: 1,
        text:
          `The universe ${world.host} answered in plain http, not https; an http universe works only on localhost or 127.0.0.1, with AGENT_NET_ALLOW_INSECURE=1 in .env.`,
      });
      // (The Turkish sentences of these culprits: cli/commands/_net_universe_test.ts.)

      // A URL written where a host belongs.
      const url = await home(`https://${world.host}/`, {
        AGENT_SPINE_URL: spine.url,
        AGENT_SPINE_TOKEN: "tok",
        AGENT_NET_ALLOW_INSECURE: "1",
      });
      r = await universe(url, "join", "en");
      assert.deepEqual(r, {
        code: 1,
        text:
          `[net] universe is a host, not a URL: write universe = "${world.host}" in agent.toml (https is used; http only on localhost or 127.0.0.1 with AGENT_NET_ALLOW_INSECURE=1).`,
      });
      r = await universe(url, "status", "tr");
      assert.equal(
        r.text,
        `[net] universe bir URL değil, bir ana makine adıdır: agent.toml içine universe = "${world.host}" yazın (https kullanılır; http yalnızca localhost ya da 127.0.0.1 üzerinde AGENT_NET_ALLOW_INSECURE=1 ile).`,
      );
    } finally {
      await spine.stop();
      await world.stop();
      await cleanup();
    }
  },
});
