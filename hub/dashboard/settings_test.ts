import assert from "node:assert/strict";
import { HttpError } from "@agent/net";
import { tempDir } from "../../tests/_temp_dir.ts";
import { dashboardSettings } from "./settings.ts";

const TOML = `[models.roles.brain]
provider = "fake"
model_id = "fake-brain"
`;

const SESSION = { id: "s", csrf: "c", expiresAt: Infinity };

function post(name: string, body: unknown): Request {
  return new Request(`http://127.0.0.1:8790/dashboard/api/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

Deno.test("dashboardSettings() refuses a role name that is a member of every object, and writes nothing", async () => {
  using tmp = tempDir();
  const paths = { configFile: `${tmp.path}/agent.toml`, envFile: `${tmp.path}/.env` };
  await Deno.writeTextFile(paths.configFile, TOML);
  const settings = dashboardSettings({ paths, env: {}, lang: "en" });
  for (const role of ["constructor", "toString", "hasOwnProperty", "__proto__", "valueOf"]) {
    await assert.rejects(
      () =>
        settings.handle(
          post("settings/role", { role, provider: "fake", model_id: "x" }),
          SESSION,
          { path: "/settings/role" },
        ),
      (e) => e instanceof HttpError && e.status === 400 && e.detail === `role: no role '${role}'`,
      role,
    );
  }
  assert.equal(await Deno.readTextFile(paths.configFile), TOML);
  // A role the file has is still saved.
  const saved = await settings.handle(
    post("settings/role", { role: "brain", provider: "fake", model_id: "fake-fast" }),
    SESSION,
    { path: "/settings/role" },
  );
  assert.equal(saved?.status, 200);
  assert.match(await Deno.readTextFile(paths.configFile), /model_id = "fake-fast"/);
});

Deno.test("dashboardSettings() names the refused field in the page's words, and an emptied budget removes the cap", async () => {
  using tmp = tempDir();
  const paths = { configFile: `${tmp.path}/agent.toml`, envFile: `${tmp.path}/.env` };
  const withBudget =
    `${TOML}\n# the cap\n[models.roles.brain.budget]\nusd = 15\nperiod = "month"\n`;
  await Deno.writeTextFile(paths.configFile, withBudget);
  const settings = dashboardSettings({ paths, env: {}, lang: "en" });
  const send = (body: unknown) =>
    settings.handle(post("settings/role", body), SESSION, { path: "/settings/role" });
  const refused = await send({ role: "brain", provider: "fake", model_id: "m", budget_usd: "-3" });
  assert.equal(refused?.status, 400);
  const body = await refused!.json() as { field: string; detail: string };
  assert.equal(body.field, "budget_usd");
  assert.equal(body.detail, "Enter an amount above 0 in dollars, such as 15 or 2.50.");
  assert.equal(await Deno.readTextFile(paths.configFile), withBudget);
  const cleared = await send({ role: "brain", provider: "fake", model_id: "m", budget_usd: "" });
  assert.equal(cleared?.status, 200);
  const answer = await cleared!.json() as { cleared: string | null };
  assert.equal(answer.cleared, "brain has no budget now: its calls are no longer capped.");
  const text = await Deno.readTextFile(paths.configFile);
  assert.doesNotMatch(text, /budget|usd = 15/);
  assert.match(text, /# the cap/);
});

Deno.test("dashboardSettings() refuses an address variable that is not an address", async () => {
  using tmp = tempDir();
  const paths = { configFile: `${tmp.path}/agent.toml`, envFile: `${tmp.path}/.env` };
  await Deno.writeTextFile(paths.configFile, TOML);
  const settings = dashboardSettings({ paths, env: {}, lang: "tr" });
  await assert.rejects(
    () =>
      settings.handle(
        post("settings/secret", { name: "AGENT_LOCAL_RUNTIME_URL", value: "not a url" }),
        SESSION,
        { path: "/settings/secret" },
      ),
    (e) => e instanceof HttpError && e.status === 400 && /bir adres ister/.test(e.detail ?? ""),
  );
});
