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
