/**
 * The shipped model table: which model id serves `brain` and `fast` for each hosted
 * provider. `agent init` writes these into `agent.toml`. Part of the core distribution;
 * ids last checked against the vendors' model pages on 24.11.2026.
 *
 * @module
 */

/** Providers with a shipped brain/fast pair. */
export type ShippedProvider = "vendor-a" | "vendor-b" | "vendor-c" | "vendor-d" | "fake";

/** The shipped pair of one provider. */
export interface ShippedModels {
  brain: string;
  fast: string;
  /** Written as `params.reasoning_effort` of both roles when set. */
  reasoning_effort?: "none";
}

/** Model ids per provider for the `brain` and `fast` roles. */
export const SHIPPED_MODELS: Readonly<Record<ShippedProvider, ShippedModels>> = {
  // Anthropic Messages API
  "vendor-a": { brain: "claude-sonnet-5-5", fast: "claude-haiku-5-5" },
  // OpenAI Chat Completions API. GPT-6 Sol and Luna call tools there only with
  // reasoning effort "none" (GPT-6.1 Sol and later only through the Responses API).
  "vendor-b": { brain: "gpt-6-sol", fast: "gpt-6-luna", reasoning_effort: "none" },
  // Google Gemini API
  "vendor-c": { brain: "gemini-2.5-pro", fast: "gemini-2.5-flash" },
  // Amazon Bedrock Converse, global cross-region inference profiles
  "vendor-d": {
    brain: "global.anthropic.claude-sonnet-5-5",
    fast: "global.anthropic.claude-haiku-5-5",
  },
  // The scripted model: answers `Okay.` or the role's `params.replies`.
  fake: { brain: "fake-brain", fast: "fake-fast" },
};

/** The date the shipped model ids and prices were last checked (DD.MM.YYYY). */
export const CHECKED_ON = "24.11.2026";
