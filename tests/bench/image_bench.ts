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
 * here: no JSR and no registry for images. Run: `deno task bench image`. Prints
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
  for (let i = 0; i < RUNS; i++) builds.push(await buildImage(project.dir, tag, true));
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
  metric(
    "previous_image",
    "not buildable here (deno install of jsr:@agent/cli at build time: no JSR, no image registry)",
  );
} finally {
  await removeImage(tag);
  await spine.stop();
  await cleanup();
}
