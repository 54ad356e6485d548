/**
 * The brain image, with podman (see `tests/image/`):
 * - the bundle `agent net spine init --cloud` writes (`agent.js`), in bytes, and the time
 *   `init --cloud` takes with the bundling;
 * - the base image (made and cached when missing: debootstrap's time is printed then);
 * - the image's size, and what it adds to the base;
 * - the image build with the base present and no layer cache, median of 3;
 * - `podman run` to the first `/health` answering 200, against a cloud spine on workerd,
 *   median of 3 (a fresh container each time), and `podman stop` (SIGTERM) to exit.
 *
 * The previous image (`deno install` of `jsr:@agent/cli` at build time) cannot be built
 * here: no JSR and no registry for images. What it would have added is estimated from
 * the CLI's module graph (`deno info --json`): its npm packages, sized in `node_modules`.
 * Run: `deno task bench image`. Prints
 * `<metric>: <value>`; without an engine, one line saying why.
 *
 * @module
 */
import { median } from "./_stats.ts";
import { cleanup } from "../cli/_run.ts";
import { cloud, CLOUD_TOKEN, cloudHome, cloudSpine } from "../cloud/_cloud.ts";
import { probeEngine } from "../image/_podman.ts";
import {
  buildImage,
  imageSize,
  removeImage,
  runBrainContainer,
  writeCloudProject,
} from "../image/_brain_image.ts";

const RUNS = 3;
const BASE = `denoland/deno:debian-${Deno.version.deno}`;
const metric = (name: string, value: string) => console.log(`${name}: ${value}`);

const engine = await probeEngine(BASE);
if (!engine.ok) {
  console.log(`skipped: ${engine.reason}`);
  Deno.exit(0);
}
metric("base_image", `${engine.base.how} in ${(engine.base.ms / 1000).toFixed(1)} s`);
if (engine.base.debootstrapMs !== undefined) {
  metric("base_debootstrap_s", (engine.base.debootstrapMs / 1000).toFixed(1));
}

const tag = `localhost/agent-brain-bench:${crypto.randomUUID().slice(0, 8)}`;
const { spine, brainPort } = await cloudSpine();
try {
  const project = await writeCloudProject();
  if (project.base !== BASE) throw new Error(`the Dockerfile's base is ${project.base}`);
  metric(
    "bundle_bytes",
    `${project.bundleBytes} (${(project.bundleBytes / 2 ** 20).toFixed(2)} MiB)`,
  );
  metric("spine_init_cloud_s", (project.initMs / 1000).toFixed(1));

  const builds: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Each build replaces the image under the tag: remove the last, or it stays untagged.
    if (i > 0) await removeImage(tag);
    builds.push(await buildImage(project.dir, tag, true));
  }
  metric(
    "image_build_s",
    `median ${(median(builds) / 1000).toFixed(1)} (${
      builds.map((b) => (b / 1000).toFixed(1)).join(", ")
    }; base present, no layer cache)`,
  );
  const size = await imageSize(tag);
  const base = await imageSize(BASE);
  metric(
    "image_size_mb",
    `${(size / 1e6).toFixed(1)} (base ${(base / 1e6).toFixed(1)}, added ${
      ((size - base) / 1e6).toFixed(1)
    })`,
  );

  const home = await cloudHome(spine);
  const pushed = await cloud(home, ["push", "-y"]);
  if (pushed.code !== 0) throw new Error(pushed.stderr);
  const healthy: number[] = [];
  const stops: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const brain = await runBrainContainer(tag, brainPort, {
      AGENT_SPINE_URL: spine.url,
      AGENT_SPINE_TOKEN: CLOUD_TOKEN,
    });
    try {
      healthy.push(brain.healthyAfterMs);
      const end = await brain.stop();
      if (end.exitCode !== 0) throw new Error(`exit ${end.exitCode}: ${end.stderr}`);
      stops.push(end.ms);
    } finally {
      await brain.remove();
    }
  }
  metric(
    "first_health_ms",
    `median ${median(healthy).toFixed(0)} (${
      healthy.map((h) => h.toFixed(0)).join(", ")
    }; podman run to /health 200)`,
  );
  metric("sigterm_stop_ms", `median ${median(stops).toFixed(0)} (exit 0 each)`);
  const previous = await previousDesignEstimate();
  metric(
    "previous_image",
    `not buildable here (deno install of jsr:@agent/cli at build time: no JSR, no image registry); it would have cached the CLI's module graph: ${previous.packages} npm packages, ${
      (previous.bytes / 1e6).toFixed(0)
    } MB on disk here`,
  );
} finally {
  await removeImage(tag);
  await spine.stop();
  await cleanup();
}

/** The npm packages of the CLI's module graph and their size in this checkout's node_modules. */
async function previousDesignEstimate(): Promise<{ packages: number; bytes: number }> {
  const root = new URL("../../", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "cli/main.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    npmPackages?: Record<string, { name: string; version: string }>;
  };
  // node_modules/.deno/<name, / as +>@<version>/node_modules/<name>; a package resolved
  // with two sets of peers is one folder.
  const folders = new Set(
    Object.values(info.npmPackages ?? {}).map(({ name, version }) =>
      `${root}node_modules/.deno/${name.replaceAll("/", "+")}@${version}/node_modules/${name}`
    ),
  );
  let bytes = 0;
  for (const folder of folders) bytes += await folderBytes(folder);
  return { packages: folders.size, bytes };
}

async function folderBytes(path: string): Promise<number> {
  let total = 0;
  try {
    for await (const entry of Deno.readDir(path)) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) total += await folderBytes(child);
      else if (entry.isFile) total += (await Deno.stat(child)).size;
    }
  } catch (error) {
    // A platform's optional package that is not installed here.
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return total;
}
