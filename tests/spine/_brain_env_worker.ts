// A Worker that answers its own environment as the brain container would get it.
// Used by cloud_brain_test.ts only.
import { brainEnvironment } from "@agent/spine";

export default {
  fetch(_request: Request, env: Record<string, unknown>): Response {
    return Response.json(brainEnvironment(env));
  },
};
