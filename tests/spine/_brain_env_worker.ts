// A Worker that answers its own environment as the brain container would get it.
// Used by cloud_brain_test.ts only.
import { brainEnvironment } from "../../spine/cloud/brain_env.ts";

export default {
  fetch(_request: Request, env: Record<string, unknown>): Response {
    return Response.json(brainEnvironment(env));
  },
};
