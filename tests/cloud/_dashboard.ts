/**
 * The dashboard in cloud mode, shared by the workerd test and the Chromium one: a cloud
 * spine on workerd, the configuration pushed from a home, and an `agent cloud run` in an
 * empty home as its brain (`BRAIN_URL`), with the fake provider answering.
 *
 * @module
 */
import assert from "node:assert/strict";
import { cleanup, tempHome } from "../cli/_run.ts";
import type { RunningSpine } from "../spine/_harness.ts";
import {
  type BrainProcess,
  CLOUD_TOKEN,
  cloudHome,
  cloudSpine,
  pushHome,
  runBrain,
} from "./_cloud.ts";

/** A cloud spine whose brain serves the dashboard. */
export interface CloudDashboard extends AsyncDisposable {
  spine: RunningSpine;
  brain: BrainProcess;
  brainPort: number;
  /** The laptop's home (`AGENT_SPINE_URL`, `AGENT_SPINE_TOKEN` in its `.env`). */
  home: string;
  /** A one-time code from `POST /hub/dashboard/code` with the hub token. */
  code(): Promise<string>;
  /** Stops the brain and starts a new one in another empty home (a container that slept). */
  restartBrain(): Promise<void>;
}

/** Starts the spine and the brain; `await using` stops both and removes the homes. */
export async function startCloudDashboard(replies: string[]): Promise<CloudDashboard> {
  const { spine, brainPort } = await cloudSpine();
  let brain: BrainProcess | undefined;
  try {
    const home = await cloudHome(spine, { replies });
    await pushHome(home);
    const env = { AGENT_SPINE_URL: spine.url, AGENT_SPINE_TOKEN: CLOUD_TOKEN };
    brain = await runBrain(await tempHome(), brainPort, env);
    let running = brain;
    const outputs: string[] = [];
    return {
      spine,
      get brain() {
        return running;
      },
      brainPort,
      home,
      async restartBrain() {
        const end = await running.stop();
        assert.equal(end.code, 0, end.stderr);
        outputs.push(end.stdout, end.stderr);
        running = await runBrain(await tempHome(), brainPort, env);
      },
      async code() {
        const res = await fetch(`${spine.url}/hub/dashboard/code`, {
          method: "POST",
          headers: { authorization: `Bearer ${CLOUD_TOKEN}` },
        });
        const body = await res.json() as { code?: string };
        assert.equal(res.status, 200, JSON.stringify(body));
        return body.code!;
      },
      async [Symbol.asyncDispose]() {
        const end = await running.stop();
        await spine.stop();
        await cleanup();
        // The token is never written to the brain's output.
        assert.ok(![...outputs, end.stdout, end.stderr].join("\n").includes(CLOUD_TOKEN));
        assert.ok(!spine.logs.join("\n").includes(CLOUD_TOKEN));
      },
    };
  } catch (error) {
    await brain?.stop();
    await spine.stop();
    await cleanup();
    throw error;
  }
}
