/**
 * Builds the AI SDK language model for a role's provider, with the credentials of
 * the Authentication table. Nothing here touches the network.
 *
 * @module
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
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
 * const model = createModel({ provider: "fake", model_id: "fake-1", params: {} }, { env: {} });
 * if (model.provider !== "fake") throw new Error(model.provider);
 * ```
 */
export function createModel(target: ModelTarget, options: CreateModelOptions): LanguageModelV4 {
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
    case "local-runtime":
      return createOpenAICompatible({
        name: "local-runtime",
        baseURL: baseURL!,
        includeUsage: true,
        ...(fetch ? { fetch } : {}),
      }).chatModel(id);
    case "vendor-a": {
      const workspace = nonEmpty(env.VENDOR_A_WORKSPACE_ID);
      return createAnthropic({
        apiKey: requireKey(target, env),
        ...(baseURL ? { baseURL } : {}),
        ...(workspace ? { headers: { "anthropic-workspace-id": workspace } } : {}),
        ...(fetch ? { fetch } : {}),
      }).languageModel(id);
    }
    case "vendor-b":
      return createOpenAI({
        apiKey: requireKey(target, env),
        ...(baseURL ? { baseURL } : {}),
        ...(fetch ? { fetch } : {}),
      }).chat(id);
    case "vendor-c":
      return createGoogleGenerativeAI({
        apiKey: requireKey(target, env),
        ...(baseURL ? { baseURL } : {}),
        ...(fetch ? { fetch } : {}),
      }).languageModel(id);
    case "vendor-d":
      return bedrockModel(target, env, baseURL, fetch);
  }
}

function requireKey(target: ModelTarget, env: Readonly<Record<string, string | undefined>>) {
  const variable = apiKeyVariable(target, env);
  const key = nonEmpty(env[variable]);
  if (key === undefined) throw new MissingCredentialError(target.provider, variable);
  return key;
}

function bedrockModel(
  target: ModelTarget,
  env: Readonly<Record<string, string | undefined>>,
  baseURL: string | undefined,
  fetch: typeof globalThis.fetch | undefined,
): LanguageModelV4 {
  const region = bedrockRegion(target, env);
  if (region === undefined) throw new MissingCredentialError("vendor-d", "VENDOR_D_REGION");
  const common = { region, ...(baseURL ? { baseURL } : {}), ...(fetch ? { fetch } : {}) };
  const bearer = nonEmpty(env.VENDOR_D_BEARER_TOKEN);
  const keyId = nonEmpty(env.VENDOR_D_ACCESS_KEY_ID);
  const secret = nonEmpty(env.VENDOR_D_SECRET_ACCESS_KEY);
  const profile = nonEmpty(env.VENDOR_D_PROFILE);
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
  if (profile !== undefined) {
    return createAmazonBedrock({
      ...common,
      credentialProvider: () => readProfileKeys(profile, env),
    }).languageModel(target.model_id);
  }
  throw new MissingCredentialError("vendor-d", "VENDOR_D_PROFILE");
}
