/**
 * The brain image as a user gets it, for the image test and bench: a cloud project from
 * `agent net spine init --cloud` (run in an empty folder with a fresh HOME), the image
 * built from it by podman with no network and no pulls, and the container run on the
 * host's network next to a cloud spine on workerd.
 *
 * @module
 */
import { agent, tempHome } from "../cli/_run.ts";
import { firstError, podman, qualified } from "./_podman.ts";

/** A cloud project on disk. */
export interface CloudProject {
  /** Its folder. */
  dir: string;
  /** The Dockerfile's base image (`FROM`). */
  base: string;
  /** The size of its `agent.js`, in bytes. */
  bundleBytes: number;
  /** How long `agent net spine init --cloud` took, bundling included, in ms. */
  initMs: number;
}

/** The base image a Dockerfile names in its (only) `FROM`. */
export function baseOf(dockerfile: string): string {
  const from = dockerfile.match(/^FROM\s+(\S+)\s*$/m)?.[1];
  if (from === undefined) throw new TypeError("Cannot read the Dockerfile: it has no FROM line");
  return from;
}

/** `agent net spine init DIR --cloud` from this checkout, in an empty folder, fresh HOME. */
export async function writeCloudProject(): Promise<CloudProject> {
  const root = await tempHome();
  const cwd = `${root}/work`;
  const home = `${root}/home`;
  await Deno.mkdir(cwd);
  await Deno.mkdir(home);
  const t0 = performance.now();
  const r = await agent(["net", "spine", "init", "spine", "--cloud"], { cwd, env: { HOME: home } });
  const initMs = performance.now() - t0;
  if (r.code !== 0) throw new Error(`spine init --cloud failed (exit ${r.code}): ${r.stderr}`);
  const dir = `${cwd}/spine`;
  const base = baseOf(await Deno.readTextFile(`${dir}/Dockerfile`));
  return { dir, base, bundleBytes: (await Deno.stat(`${dir}/agent.js`)).size, initMs };
}

/**
 * `podman build` of a project: no pull (the base must be in the store) and no network for
 * its `RUN` steps, so a build that needed a registry fails. Docker format, which keeps
 * the `HEALTHCHECK` (OCI images have none). Returns the build's ms.
 */
export async function buildImage(dir: string, tag: string, fresh = false): Promise<number> {
  const t0 = performance.now();
  const args = ["build", "--pull=never", "--network=none", "--format", "docker", "-t", tag];
  if (fresh) args.push("--no-cache");
  const r = await podman([...args, dir]);
  const ms = performance.now() - t0;
  if (r.code !== 0) throw new Error(`podman build failed: ${firstError(r)}\n${r.stdout}`);
  return ms;
}

/** An image's size in bytes, as `podman image inspect` gives it. */
export async function imageSize(image: string): Promise<number> {
  const r = await podman(["image", "inspect", "--format", "{{.Size}}", qualified(image)]);
  if (r.code !== 0) throw new Error(`podman image inspect failed: ${firstError(r)}`);
  return Number(r.stdout.trim());
}

/** Removes an image, ignoring one already gone. */
export async function removeImage(tag: string): Promise<void> {
  await podman(["rmi", "--force", tag]);
}

/** A running brain container. */
export interface BrainContainer {
  /** Its name. */
  name: string;
  /** From `podman run` to the first `/health` answering 200, in ms. */
  healthyAfterMs: number;
  /** `podman stop` (SIGTERM), then its exit code and log. */
  stop(): Promise<{ exitCode: number; stdout: string; stderr: string; ms: number }>;
  /** Removes it (stopped or not). */
  remove(): Promise<void>;
}

/**
 * Runs the image on the host's network (the container reaches the spine on 127.0.0.1 and
 * serves `/health` on 127.0.0.1:`port`) with `env`, and waits for `/health`.
 */
export async function runBrainContainer(
  image: string,
  port: number,
  env: Record<string, string>,
): Promise<BrainContainer> {
  const name = `agent-brain-test-${crypto.randomUUID().slice(0, 8)}`;
  const vars = {
    AGENT_CLOUD_HEALTH_HOST: "127.0.0.1",
    AGENT_CLOUD_HEALTH_PORT: String(port),
    ...env,
  };
  const remove = async () => {
    await podman(["rm", "--force", "--time", "0", name]);
  };
  const t0 = performance.now();
  const run = await podman([
    "run",
    "--detach",
    "--name",
    name,
    "--network=host",
    ...Object.entries(vars).flatMap(([k, v]) => ["--env", `${k}=${v}`]),
    image,
  ]);
  if (run.code !== 0) {
    await remove();
    throw new Error(`podman run failed: ${firstError(run)}`);
  }
  let healthyAfterMs = -1;
  const deadline = Date.now() + 60_000;
  // Whether the container still runs is asked of podman every half second, not every
  // look at /health: each `podman inspect` is a process of ~0.15 s of processor time.
  let inspectAt = 0;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      await res.body?.cancel();
      if (res.ok) {
        healthyAfterMs = performance.now() - t0;
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() >= inspectAt) {
      inspectAt = Date.now() + 500;
      const state = await podman(["inspect", "--format", "{{.State.Running}}", name]);
      if (state.stdout.trim() !== "true") break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (healthyAfterMs < 0) {
    const logs = await podman(["logs", name]);
    await remove();
    throw new Error(`the brain never became healthy:\n${logs.stdout}${logs.stderr}`);
  }
  return {
    name,
    healthyAfterMs,
    async stop() {
      const s0 = performance.now();
      const stopped = await podman(["stop", "--time", "30", name]);
      const ms = performance.now() - s0;
      if (stopped.code !== 0) throw new Error(`podman stop failed: ${firstError(stopped)}`);
      const code = await podman(["inspect", "--format", "{{.State.ExitCode}}", name]);
      const logs = await podman(["logs", name]);
      return { exitCode: Number(code.stdout.trim()), stdout: logs.stdout, stderr: logs.stderr, ms };
    },
    remove,
  };
}
