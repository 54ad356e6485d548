/**
 * The brain image end to end, with podman: `agent net spine init --cloud` writes the
 * Dockerfile and the CLI's bundle; podman builds the image offline (no pull, no network
 * in the build); the container runs `agent cloud run` against a cloud spine on workerd,
 * answers `/health` through the spine (`GET /hub/brain`) and its own `HEALTHCHECK`, runs
 * as its own user, and stops cleanly on SIGTERM.
 *
 * Where no engine can run (no podman, not root for the base image, a runtime that fails)
 * it is skipped with one line saying why; with `AGENT_IMAGE_TEST=required` (CI) it fails
 * instead. The base image is made and cached by `_podman.ts`.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { hub } from "../spine/_fixtures.ts";
import { CLOUD_TOKEN, cloudHome, cloudSpine, pushHome } from "../cloud/_cloud.ts";
import { type Engine, podman, probeEngine } from "./_podman.ts";
import {
  type BrainContainer,
  buildImage,
  imageSize,
  removeImage,
  runBrainContainer,
  writeCloudProject,
} from "./_brain_image.ts";

// The kit pins the Deno that CI runs (a kit test checks), so this is the Dockerfile's base.
const BASE = `denoland/deno:debian-${Deno.version.deno}`;
const REQUIRED = Deno.env.get("AGENT_IMAGE_TEST") === "required";
const engine: Engine = await probeEngine(BASE);
if (!engine.ok && !REQUIRED) console.log(`Skipping the brain image test: ${engine.reason}.`);
else if (engine.ok) {
  const { how, ms, debootstrapMs } = engine.base;
  const debootstrap = debootstrapMs === undefined
    ? ""
    : ` (debootstrap ${(debootstrapMs / 1000).toFixed(1)} s)`;
  console.log(`base image ${BASE}: ${how} in ${(ms / 1000).toFixed(1)} s${debootstrap}`);
}

Deno.test({
  name:
    "the brain image: spine init --cloud's Dockerfile and agent.js build offline, answer /health through the cloud spine, stop cleanly on SIGTERM",
  ignore: !engine.ok && !REQUIRED,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    if (!engine.ok) throw new Error(`AGENT_IMAGE_TEST=required, but ${engine.reason}`);
    const tag = `localhost/agent-brain-test:${crypto.randomUUID().slice(0, 8)}`;
    const { spine, brainPort } = await cloudSpine();
    let container: BrainContainer | undefined;
    try {
      const project = await writeCloudProject();
      assert.equal(project.base, BASE);
      const dockerfile = await Deno.readTextFile(`${project.dir}/Dockerfile`);
      assert.match(dockerfile, /^COPY agent\.js \/opt\/agent\/agent\.js$/m);
      console.log(
        `spine init --cloud: ${(project.initMs / 1000).toFixed(1)} s, agent.js ${
          (project.bundleBytes / 2 ** 20).toFixed(2)
        } MiB`,
      );

      const buildMs = await buildImage(project.dir, tag);
      console.log(
        `image built in ${(buildMs / 1000).toFixed(1)} s, ${
          ((await imageSize(tag)) / 1e6).toFixed(0)
        } MB`,
      );
      const [image] = JSON.parse((await podman(["image", "inspect", tag])).stdout);
      const config = image.Config;
      assert.equal(config.User, "agent");
      assert.equal(config.WorkingDir, "/agent");
      for (const env of ["AGENT_HOME=/agent", "AGENT_DATA_DIR=/data"]) {
        assert.ok(config.Env.includes(env), config.Env.join(" "));
      }
      assert.deepEqual(Object.keys(config.ExposedPorts), ["8080/tcp"]);
      assert.equal(config.Entrypoint.at(-3), "/opt/agent/agent.js");
      assert.ok(!config.Entrypoint.includes("-A") && !config.Entrypoint.includes("--allow-all"));
      // The base's own command is not passed on to agent cloud run.
      assert.ok(!config.Cmd?.length, JSON.stringify(config.Cmd));
      assert.equal(image.Healthcheck?.Test?.[0], "CMD", JSON.stringify(image.Healthcheck));

      // The brain pulls its agent.toml (a fake model) from the spine.
      const home = await cloudHome(spine);
      await pushHome(home);

      const brain = await runBrainContainer(tag, brainPort, {
        AGENT_SPINE_URL: spine.url,
        AGENT_SPINE_TOKEN: CLOUD_TOKEN,
      });
      container = brain;
      console.log(`first /health ${brain.healthyAfterMs.toFixed(0)} ms after podman run`);

      // Through the spine, as the platform reaches its container.
      const viaSpine = await hub(spine.url, CLOUD_TOKEN, "/hub/brain");
      assert.equal(viaSpine.status, 200, JSON.stringify(viaSpine.body));
      assert.equal(viaSpine.body.ok, true);
      const version =
        JSON.parse(await Deno.readTextFile(new URL("../../cli/deno.json", import.meta.url)))
          .version;
      assert.equal(viaSpine.body.version, version);
      // The image's own HEALTHCHECK (podman runs it on demand: no systemd timers here).
      const check = await podman(["healthcheck", "run", brain.name]);
      assert.equal(check.code, 0, check.stderr);

      // Its own user, its folders, and a bundle it cannot change.
      const name = brain.name;
      const exec = (script: string) => podman(["exec", name, "sh", "-c", script]);
      assert.equal((await exec("id -u")).stdout.trim(), "10001");
      assert.equal((await exec("stat -c %U /agent /data")).stdout, "agent\nagent\n");
      assert.notEqual((await exec("test -w /opt/agent/agent.js")).code, 0);
      assert.equal((await exec("test -s /agent/agent.toml")).code, 0);

      const end = await brain.stop();
      assert.equal(end.exitCode, 0, `${end.stdout}\n${end.stderr}`);
      assert.ok(end.ms < 15_000, `podman stop took ${end.ms} ms: SIGTERM was not honoured`);
      assert.match(end.stdout, /SIGTERM/);
      assert.match(end.stdout, /^hub stopped\.$/m);
      assert.equal(end.stderr.trim(), "");
      assert.ok(!end.stdout.includes(CLOUD_TOKEN));
    } finally {
      await container?.remove();
      await removeImage(tag);
      await spine.stop();
      await cleanup();
    }
  },
});
