/**
 * A fresh home as `agent init --yes --provider fake` writes it, for the end-to-end tests
 * that need one per test. It is written in the test's process by the same `setupHome()`
 * that `agent init` runs (`initHome()` of `tests/cli/_run.ts`; `tests/cli/init_test.ts`
 * checks the two homes are equal byte for byte): a spawned init costs 0.2 to 0.7 s of
 * processor time and a Deno start. `tests/cli/` keeps testing `agent init` itself.
 *
 * @module
 */
import { initHome, tempHome } from "./cli/_run.ts";

/** A fresh home (a {@linkcode tempHome}, removed by `cleanup()`) as `agent init --yes --provider fake` writes it. */
export function fakeInitHome(): Promise<string> {
  return initHome(tempHome(), { provider: "fake" });
}
