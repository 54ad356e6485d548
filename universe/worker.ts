/**
 * The universe Worker's entry module: `fetch` for pages and the API, `scheduled` for the
 * hourly cron, and the Directory Durable Object class.
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

export { Directory } from "./directory.ts";

export default {
  fetch(request: Request, env: Env, _ctx: ExecutionContext): Promise<Response> {
    return handleRequest(request, env);
  },
  async scheduled(controller: ScheduledController, env: Env, _ctx: ExecutionContext) {
    await runCron(env, controller.scheduledTime);
  },
} satisfies ExportedHandler<Env>;
