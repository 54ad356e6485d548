/**
 * The brain container (cloud mode): a container-enabled Durable Object running the
 * image whose entry point is `agent cloud run`. Only the Worker's entry module imports
 * this file, since `@cloudflare/containers` needs the Workers runtime.
 *
 * @module
 */
// @deno-types="./container.d.ts"
import { Container } from "@cloudflare/containers";
import type { Env } from "../env.ts";
import { BRAIN_PORT, brainEnvironment } from "./brain_env.ts";

/** How long a start may take before `GET /hub/brain` gives up (ms). */
export const BRAIN_START_WAIT_MS = 90_000;

/** The container class bound as `BRAIN`; one instance, named `brain`. */
export class Brain extends Container<Env> {
  override defaultPort = BRAIN_PORT;
  // Without traffic the container sleeps after this; KEEP_AWAKE=1 pings it every minute.
  override sleepAfter = "15m";

  constructor(ctx: unknown, env: Env) {
    super(ctx, env);
    this.envVars = brainEnvironment(env as unknown as Record<string, unknown>);
  }

  /** Starts the container when needed and waits until its port answers. */
  async wake(): Promise<void> {
    await this.startAndWaitForPorts({
      ports: [BRAIN_PORT],
      cancellationOptions: {
        instanceGetTimeoutMS: BRAIN_START_WAIT_MS,
        portReadyTimeoutMS: BRAIN_START_WAIT_MS,
      },
    });
  }
}
