/**
 * The shipped model table: which model id serves `brain` and `fast` for each hosted
 * provider. `agent init` writes these into `agent.toml`. Part of the core distribution;
 * ids last checked against the vendors' model pages on 22.11.2026.
 *
 * @module
 */

/** Providers with a shipped brain/fast pair. */
export type ShippedProvider = "vendor-a" | "vendor-b" | "vendor-c" | "vendor-d" | "fake";

/** Model ids per provider for the `brain` and `fast` roles. */
export const SHIPPED_MODELS: Readonly<Record<ShippedProvider, { brain: string; fast: string }>> = {
  // Anthropic Messages API
  "vendor-a": { brain: "claude-sonnet-5", fast: "claude-haiku-4-5" },
  // OpenAI Chat Completions API
  "vendor-b": { brain: "gpt-5.2", fast: "gpt-5-mini" },
  // Google Gemini API
  "vendor-c": { brain: "gemini-2.5-pro", fast: "gemini-2.5-flash" },
  // Amazon Bedrock Converse, global cross-region inference profiles
  "vendor-d": {
    brain: "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
    fast: "global.anthropic.claude-haiku-4-5-20251001-v1:0",
  },
  // The scripted model: answers `Okay.` or the role's `params.replies`.
  fake: { brain: "fake-brain", fast: "fake-fast" },
};

/** The date the shipped model ids and prices were last checked (DD.MM.YYYY). */
export const CHECKED_ON = "22.11.2026";
