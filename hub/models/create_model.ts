/**
 * Builds the AI SDK language model for a role's provider, with the credentials of
 * the Authentication table. Nothing here touches the network.
 *
 * Each vendor's SDK package is imported when a role first uses it: the five together
 * hold ~15 MiB of a running hub, and a home uses one or two of them.
 *
 * @module
 */
import { FakeLanguageModel } from "./fake.ts";
import { readProfileKeys } from "./aws_profile.ts";
import {
  bedrockRegion,
  type LanguageModelV4,
  type ModelTarget,
  nonEmpty,
  providerBaseUrl,
} from "./target.ts";

/** Options for {@linkcode createModel}. */
export interface CreateModelOptions {
  /** The merged environment (`.env` and process environment). */
  env: Readonly<Record<string, string | undefined>>;
  /** The fetch the provider uses. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** A provider's credentials are missing; `variable` names the first one. */
export class MissingCredentialError extends Error {
  override name = "MissingCredentialError";
  /** The variable to set. */
  readonly variable: string;

  constructor(provider: string, variable: string) {
    super(`Cannot build the ${provider} model: ${variable} is not set`);
    this.variable = variable;
  }
}

/** The variable holding the API key of `vendor-a`, `vendor-b` or `vendor-c`. */
export function apiKeyVariable(
  target: ModelTarget,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const custom = nonEmpty(target.params.api_key_env);
  if (custom !== undefined) return custom;
  switch (target.provider) {
    case "vendor-a":
      return "VENDOR_A_API_KEY";
    case "vendor-b":
      return "VENDOR_B_API_KEY";
    case "vendor-c":
      return nonEmpty(env.VENDOR_C_API_KEY) === undefined &&
          nonEmpty(env.VENDOR_C_ALT_API_KEY) !== undefined
        ? "VENDOR_C_ALT_API_KEY"
        : "VENDOR_C_API_KEY";
    default:
      return "";
  }
}

/**
 * The AI SDK model for `target`. Throws {@linkcode MissingCredentialError} when the
 * provider's key (or vendor-d's region and credentials) is missing.
 *
 * @example
 * ```ts
 * import { createModel } from "./create_model.ts";
 * const model = await createModel({ provider: "fake", model_id: "fake-1", params: {} }, {
 *   env: {},
 * });
 * if (model.provider !== "fake") throw new Error(model.provider);
 * ```
 */
export async function createModel(
  target: ModelTarget,
  options: CreateModelOptions,
): Promise<LanguageModelV4> {
  const env = options.env;
  const fetch = options.fetch;
  const baseURL = providerBaseUrl(target, env);
  const id = target.model_id;
  switch (target.provider) {
    case "fake":
      return new FakeLanguageModel(id, target.params.replies ?? [], {
        wordMs: target.params.word_ms ?? 0,
        ...(target.params.usage !== undefined ? { usage: target.params.usage } : {}),
      });
    case "local-runtime": {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      return createOpenAICompatible({
        name: "local-runtime",
        baseURL: baseURL!,
        includeUsage: true,
        ...(fetch ? { fetch } : {}),
      }).chatModel(id);
    }
    case "vendor-a": {
      const apiKey = requireKey(target, env);
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      const workspace = nonEmpty(env.VENDOR_A_WORKSPACE_ID);
      return createAnthropic({
        apiKey,
        ...(baseURL ? { baseURL } : {}),
        ...(workspace ? { headers: { "anthropic-workspace-id": workspace } } : {}),
        ...(fetch ? { fetch } : {}),
      }).languageModel(id);
    }
    case "vendor-b": {
      const apiKey = requireKey(target, env);
      const { createOpenAI } = await import("@ai-sdk/openai");
      return createOpenAI({
        apiKey,
        ...(baseURL ? { baseURL } : {}),
        ...(fetch ? { fetch } : {}),
      }).chat(id);
    }
    case "vendor-c": {
      const apiKey = requireKey(target, env);
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI({
        apiKey,
        ...(baseURL ? { baseURL } : {}),
        ...(fetch ? { fetch } : {}),
      }).languageModel(id);
    }
    case "vendor-d":
      return await bedrockModel(target, env, baseURL, fetch);
  }
}

function requireKey(target: ModelTarget, env: Readonly<Record<string, string | undefined>>) {
  const variable = apiKeyVariable(target, env);
  const key = nonEmpty(env[variable]);
  if (key === undefined) throw new MissingCredentialError(target.provider, variable);
  return key;
}

async function bedrockModel(
  target: ModelTarget,
  env: Readonly<Record<string, string | undefined>>,
  baseURL: string | undefined,
  fetch: typeof globalThis.fetch | undefined,
): Promise<LanguageModelV4> {
  const region = bedrockRegion(target, env);
  if (region === undefined) throw new MissingCredentialError("vendor-d", "VENDOR_D_REGION");
  const bearer = nonEmpty(env.VENDOR_D_BEARER_TOKEN);
  const keyId = nonEmpty(env.VENDOR_D_ACCESS_KEY_ID);
  const secret = nonEmpty(env.VENDOR_D_SECRET_ACCESS_KEY);
  const profile = nonEmpty(env.VENDOR_D_PROFILE);
  if (
    bearer === undefined && (keyId === undefined || secret === undefined) &&
    profile === undefined
  ) {
    throw new MissingCredentialError("vendor-d", "VENDOR_D_PROFILE");
  }
  const { createAmazonBedrock } = await import("@ai-sdk/amazon-bedrock");
  const common = { region, ...(baseURL ? { baseURL } : {}), ...(fetch ? { fetch } : {}) };
  if (bearer !== undefined) {
    return createAmazonBedrock({ ...common, apiKey: bearer }).languageModel(target.model_id);
  }
  if (keyId !== undefined && secret !== undefined) {
    const token = nonEmpty(env.VENDOR_D_SESSION_TOKEN);
    return createAmazonBedrock({
      ...common,
      accessKeyId: keyId,
      secretAccessKey: secret,
      ...(token ? { sessionToken: token } : {}),
    }).languageModel(target.model_id);
  }
  return createAmazonBedrock({
    ...common,
    credentialProvider: () => readProfileKeys(profile!, env),
  }).languageModel(target.model_id);
}
