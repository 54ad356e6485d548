/**
 * The spine Worker's entry module, bundled to one file for workerd.
 *
 * @module
 */
import type {
  ExecutionContext,
  ExportedHandler,
  ScheduledController,
} from "@cloudflare/workers-types/index.ts";
import type { Env } from "./env.ts";
import { handleRequest, runCron } from "./router.ts";

export { Mailbox } from "./mailbox.ts";
export { Brain } from "./cloud/brain.ts";

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    return handleRequest(request, env, ctx);
  },
  async scheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext) {
    await runCron(controller.scheduledTime, env);
  },
} satisfies ExportedHandler<Env>;
