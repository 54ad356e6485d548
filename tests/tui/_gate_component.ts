/**
 * A component distribution whose module finishes loading only once the file named by
 * `AGENT_TEST_GATE` exists. `agent tui` loads the listed modules after its first frame,
 * so a test holds the TUI in its start-up, as a module downloading on a fresh Deno cache
 * would, for as long as it needs, however loaded the machine is.
 *
 * @module
 */

const gate = Deno.env.get("AGENT_TEST_GATE");
while (gate !== undefined) {
  try {
    Deno.statSync(gate);
    break;
  } catch {
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** No components: the module is listed for its wait alone. */
export const manifest = { distribution: "agent-test-gate", version: "1.0.0", components: [] };
