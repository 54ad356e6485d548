/**
 * The commands a test or a script runs again and again start on the hub's light doors
 * (`@agent/hub/network`, `/cloud`, `/daemon`, `/base`, `/config`), never on a static
 * import of the whole hub: `@agent/hub` loads the model SDKs, about half a second of
 * processor time per run (`agent net log`: 0.89 s against 0.35 s user+sys). A command
 * that needs the whole hub for one action imports it there, dynamically.
 */
import assert from "node:assert/strict";

const LIGHT = [
  "commands/net.ts",
  "commands/_net_actions.ts",
  "commands/_net_node.ts",
  "commands/_net_views.ts",
  "commands/_net_spine.ts",
  "commands/_net_universe.ts",
  "commands/_spine_cloud_secrets.ts",
  "commands/cloud.ts",
  "commands/hub.ts",
];

Deno.test("agent net, cloud and hub commands import the whole hub only where an action needs it", async () => {
  for (const file of LIGHT) {
    const text = await Deno.readTextFile(new URL(file, import.meta.url));
    const whole = [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+"@agent\/hub";/gms)];
    assert.deepEqual(whole.map((m) => m[0]), [], `${file} imports @agent/hub statically`);
  }
});
