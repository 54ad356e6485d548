/**
 * `deno task universe:deploy`: bundles the universe Worker into `.universe-build/`
 * (one module, with a wrangler configuration made from `universe/wrangler.jsonc`) and
 * deploys it with the repository's pinned wrangler. A session is checked first with
 * `wrangler whoami --json`, whose output (it names the account's e-mail) is never shown;
 * the e-mail is masked in every line wrangler prints afterwards.
 *
 * @module
 */
import { bundleWorker } from "./bundle.ts";
import { kitWranglerTemplate } from "./kit_files.ts";
import { UNIVERSE_ENTRY } from "./universe_dev.ts";
import { mask, parseWhoami, runCommand } from "./spine_deploy.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const WRANGLER = `${ROOT}node_modules/wrangler/bin/wrangler.js`;

/** Writes the deployable universe into `dir`; returns the configuration's path. */
export async function buildUniverse(dir: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  await bundleWorker(UNIVERSE_ENTRY, `${dir}/worker.js`, { label: "the universe" });
  const source = await Deno.readTextFile(`${ROOT}universe/wrangler.jsonc`);
  const config = kitWranglerTemplate(source)
    .replace(
      /^\/\/ The spine Worker[^\n]*\n(\/\/[^\n]*\n)*/,
      "// The universe Worker, bundled by `deno task universe:deploy`.\n",
    )
    .split("\n").filter((line) => !line.includes("// routes:")).join("\n");
  await Deno.writeTextFile(`${dir}/wrangler.jsonc`, config);
  return `${dir}/wrangler.jsonc`;
}

async function main(): Promise<number> {
  const dir = `${ROOT}.universe-build`;
  const config = await buildUniverse(dir);
  const whoami = await runCommand("node", [WRANGLER, "whoami", "--json"], {
    cwd: dir,
    capture: true,
  });
  if (whoami.code === -1) {
    console.error("universe:deploy needs Node.js (node was not found).");
    return 1;
  }
  const session = parseWhoami(whoami.stdout);
  if (!session.loggedIn) {
    console.error(
      "wrangler is not logged in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then `deno task universe:deploy` again.",
    );
    return 1;
  }
  const secrets = session.email ? [session.email] : [];
  const deployed = await runCommand("node", [WRANGLER, "deploy", "--config", config], {
    cwd: dir,
    onLine: (line) => console.log(`  ${mask(line, secrets)}`),
  });
  if (deployed.code !== 0) {
    console.error(`wrangler deploy failed (exit ${deployed.code}); the output above says why.`);
    return 1;
  }
  console.log(
    "The universe is deployed. Set UNIVERSE to its host in the dashboard or wrangler.jsonc.",
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main());
