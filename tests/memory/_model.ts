/**
 * An in-process stand-in for an OpenAI-compatible model service (vendor-b's wire: Chat
 * Completions over SSE), handed to the agent as its `fetch`: every request body is kept
 * for the test to search, and each answer is the next scripted step (text, tool calls)
 * or a short default. No socket, so a thousand turns take seconds.
 *
 * @module
 */
import { openaiStep, type StepScript } from "../_vendor_steps.ts";
import { USAGE } from "../_vendor_server.ts";

/** The stand-in: its `fetch`, what it received, and the steps it answers next. */
export interface ModelStandIn {
  fetch: typeof fetch;
  /** Every request's JSON body, oldest first. */
  requests: Record<string, unknown>[];
  /** Answers for the next requests, in order; then `reply` as text. */
  script: StepScript[];
  /** What a request with no scripted step gets. @default "Noted." */
  reply: string;
}

/** A model stand-in; `reply` answers every request nothing is scripted for. */
export function modelStandIn(reply = "Noted."): ModelStandIn {
  const standIn: ModelStandIn = {
    requests: [],
    script: [],
    reply,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const body = await request.json() as Record<string, unknown>;
      standIn.requests.push(body);
      const step = standIn.script.shift() ?? { text: standIn.reply };
      return openaiStep(step, String(body.model ?? "m"), USAGE);
    },
  };
  return standIn;
}

/** `agent.toml` text for a `brain` role on the stand-in (vendor-b, priced). */
export function standInRoles(extra = ""): string {
  return `
[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-test"
[models.roles.brain.params]
base_url = "http://model.invalid/v1"
[models.prices.gpt-test]
input = 1.0
output = 2.0
${extra}`;
}

/** The environment the stand-in's role needs (a key that is never sent anywhere). */
export const STAND_IN_ENV = { VENDOR_B_API_KEY: "sk-test" };
