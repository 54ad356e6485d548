import assert from "node:assert/strict";
import { OwnSpineError, SpineError } from "./spine_client.ts";
import { UniverseError } from "./universe.ts";
import { universeFailure, universeFieldsProblem } from "./universe_actions.ts";

const HOST = "u.example";

Deno.test("universeFailure() names the own spine, not the universe (en, tr)", () => {
  const down = new OwnSpineError(
    "http://127.0.0.1:8787",
    new SpineError("GET /hub/health", 0, "", { detail: "connection refused" }),
  );
  assert.equal(
    universeFailure("en", HOST, down),
    "Your own spine http://127.0.0.1:8787 does not answer (GET /hub/health: connection refused), so the universe u.example was not asked; start the spine, or check AGENT_SPINE_URL in .env.",
  );
  assert.equal(
    universeFailure("tr", HOST, down),
    "Kendi spine'ınız http://127.0.0.1:8787 yanıt vermiyor (GET /hub/health: connection refused), bu yüzden u.example evrenine sorulmadı; spine'ı başlatın ya da .env içindeki AGENT_SPINE_URL ayarını denetleyin.",
  );
});

Deno.test("universeFailure() tells no answer, plain http, a URL for a host and a refusal apart (en, tr)", () => {
  const silent = new UniverseError(0, "unreachable", "u.example does not answer: timeout", {
    reason: "timeout",
  });
  assert.equal(
    universeFailure("en", HOST, silent),
    "The universe u.example does not answer (timeout); check [net] universe in agent.toml and the connection.",
  );
  assert.equal(
    universeFailure("tr", HOST, silent),
    "u.example evreni yanıt vermiyor (timeout); agent.toml içindeki [net] universe ayarını ve bağlantıyı denetleyin.",
  );
  const plain = new UniverseError(0, "not_https", "u.example does not answer: x");
  assert.equal(
    universeFailure("tr", HOST, plain),
    "u.example evreni https değil düz http ile yanıt verdi; http bir evren yalnızca localhost ya da 127.0.0.1 üzerinde, .env içinde AGENT_NET_ALLOW_INSECURE=1 ile çalışır.",
  );
  const url = new UniverseError(0, "scheme_in_host", "x", { host: "u.example" });
  assert.ok(universeFailure("en", "https://u.example", url)!.includes('universe = "u.example"'));
  const refused = new UniverseError(400, "stale", "stale");
  assert.equal(universeFailure("en", HOST, refused), "The universe u.example refused: stale.");
  assert.equal(universeFailure("tr", HOST, refused), "u.example evreni reddetti: stale.");
  assert.equal(universeFailure("en", HOST, new Error("other")), undefined);
});

Deno.test("universeFieldsProblem() refuses an owner past 60 and an about past 200 characters", () => {
  assert.equal(
    universeFieldsProblem("en", { owner: "x".repeat(60), about: "é".repeat(200) }),
    undefined,
  );
  assert.equal(
    universeFieldsProblem("en", { owner: "x".repeat(61) }),
    "--owner has more than 60 characters.",
  );
  assert.equal(
    universeFieldsProblem("tr", { about: "y".repeat(201) }),
    "--about 200 karakterden uzun.",
  );
});
