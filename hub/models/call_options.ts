/**
 * Per-call settings that depend on the role actually answering: the token cap under
 * each API's own name, reasoning effort, and prompt-cache markers.
 *
 * @module
 */
import type { CallOptions, ModelTarget } from "./target.ts";

type ProviderOptions = NonNullable<CallOptions["providerOptions"]>;
type PromptMessage = CallOptions["prompt"][number];

/**
 * Returns `options` adjusted for `target`:
 * - `max_tokens` becomes `max_tokens` (vendor-a, local-runtime), `max_completion_tokens`
 *   (vendor-b), `maxOutputTokens` in `generationConfig` (vendor-c) or `maxTokens` in the
 *   Converse `inferenceConfig` (vendor-d);
 * - `params.reasoning_effort` goes to vendor-b and the local server;
 * - a `cache` table marks the system prompt's first (stable) part and the latest
 *   message as cache prefixes (vendor-a `cache_control`, vendor-d `cachePoint`);
 *   elsewhere the system prompt's parts are joined into one message.
 */
export function applyTarget(target: ModelTarget, options: CallOptions): CallOptions {
  const providerOptions: ProviderOptions = { ...(options.providerOptions ?? {}) };
  const out: CallOptions = { ...options };
  const max = target.max_tokens;
  const effort = target.params.reasoning_effort;
  if (target.provider === "vendor-b") {
    delete out.maxOutputTokens;
    providerOptions.openai = {
      ...(providerOptions.openai ?? {}),
      ...(max !== undefined ? { maxCompletionTokens: max } : {}),
      ...(effort !== undefined ? { reasoningEffort: effort } : {}),
    };
  } else if (max !== undefined) {
    out.maxOutputTokens = max;
  }
  if (target.provider === "local-runtime" && effort !== undefined) {
    providerOptions.localRuntime = {
      ...(providerOptions.localRuntime ?? {}),
      reasoningEffort: effort,
    };
  }
  if (Object.keys(providerOptions).length > 0) out.providerOptions = providerOptions;
  const cache = target.cache;
  if (cache && (target.provider === "vendor-a" || target.provider === "vendor-d")) {
    out.prompt = markCache(options.prompt, target.provider, cache);
  } else {
    out.prompt = joinSystem(options.prompt);
  }
  return out;
}

/** Joins the system prompt's parts into one message where no cache keeps them apart. */
function joinSystem(prompt: CallOptions["prompt"]): CallOptions["prompt"] {
  const systems = prompt.filter((m) => m.role === "system");
  if (systems.length < 2) return prompt;
  const joined: PromptMessage = {
    role: "system",
    content: systems.map((m) => m.content).join("\n\n"),
  };
  return [joined, ...prompt.filter((m) => m.role !== "system")];
}

function markCache(
  prompt: CallOptions["prompt"],
  provider: "vendor-a" | "vendor-d",
  cache: NonNullable<ModelTarget["cache"]>,
): CallOptions["prompt"] {
  const marker: ProviderOptions = provider === "vendor-a"
    ? {
      anthropic: {
        cacheControl: cache.ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" },
      },
    }
    : {
      bedrock: {
        cachePoint: cache.ttl === "1h" ? { type: "default", ttl: "1h" } : { type: "default" },
      },
    };
  // The first system part is the stable one (persona); later parts (the `## Now`
  // block) change every turn, so a marker after them would never be hit again.
  const firstSystem = prompt.findIndex((m) => m.role === "system");
  const last = prompt.length - 1;
  return prompt.map((message, i): PromptMessage => {
    const mark = (cache.system && i === firstSystem) ||
      (cache.messages && i === last && message.role !== "system");
    if (!mark) return message;
    return { ...message, providerOptions: { ...(message.providerOptions ?? {}), ...marker } };
  });
}
