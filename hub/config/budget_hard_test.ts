import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { ConfigError } from "./error.ts";

const role = (budget: string, params = "") =>
  `[models.roles.brain]\nprovider = "fake"\nmodel_id = "m"\nbudget = ${budget}\n${params}`;

Deno.test("budget.hard: true is kept, false and absent mean the spec's rule", () => {
  const hard = parseConfig(role(`{ usd = 5, period = "day", hard = true }`), "agent.toml");
  assert.equal(hard.models.roles.brain?.budget?.hard, true);
  const soft = parseConfig(role(`{ usd = 5, period = "day", hard = false }`), "agent.toml");
  assert.equal(soft.models.roles.brain?.budget?.hard, undefined);
});

Deno.test("budget.hard and params.usage refuse bad values in one sentence", () => {
  const cases: [string, string][] = [
    [
      role(`{ usd = 5, period = "day", hard = "yes" }`),
      "agent.toml: [models.roles.brain.budget] 'hard' must be true or false.",
    ],
    [
      role(`{ usd = 5, period = "day", hrad = true }`),
      "agent.toml: [models.roles.brain.budget] has an unknown key 'hrad'. Did you mean 'hard'?",
    ],
    [
      role(`{ usd = 5, period = "day" }`, `[models.roles.brain.params]\nusage = { outptu = 3 }\n`),
      "agent.toml: [models.roles.brain.params.usage] has an unknown key 'outptu'. Did you mean 'output'?",
    ],
  ];
  for (const [toml, sentence] of cases) {
    assert.throws(() => parseConfig(toml, "agent.toml"), (e) => {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.message, sentence);
      return true;
    });
  }
});

Deno.test("params.usage gives a fake role the tokens it reports", () => {
  const config = parseConfig(
    role(
      `{ usd = 5, period = "day" }`,
      `[models.roles.brain.params]\nusage = { input = 1000, output = 200 }\n`,
    ),
    "agent.toml",
  );
  assert.deepEqual(config.models.roles.brain?.params.usage, { input: 1000, output: 200 });
});
