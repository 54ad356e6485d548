/**
 * What a provider call needs to know about a role: provider, model id, token cap,
 * params and prompt caching. A role and its `fallback` both have this shape.
 *
 * @module
 */
import type { LanguageModelV4 as ProviderModel } from "@ai-sdk/provider";
import type { CacheConfig, ProviderId, RoleParams } from "../config/types.ts";

/** A provider, a model id and how to call it: a role, or a role's fallback. */
export interface ModelTarget {
  provider: ProviderId;
  model_id: string;
  max_tokens?: number | undefined;
  params: RoleParams;
  cache?: CacheConfig | undefined;
}

/**
 * The language model interface (specification v4 of `@ai-sdk/provider`, which every
 * provider package implements): the one seam between the hub and a vendor's API.
 */
export type LanguageModelV4 = ProviderModel;

/** Options of one `doStream`/`doGenerate` call on a {@linkcode LanguageModelV4}. */
export type CallOptions = Parameters<LanguageModelV4["doStream"]>[0];

/** One part of a model's stream. */
export type StreamPart = Awaited<ReturnType<LanguageModelV4["doStream"]>>["stream"] extends
  ReadableStream<infer P> ? P : never;

/** The default address of the local model server (without `/v1`). */
export const DEFAULT_LOCAL_RUNTIME_URL = "http://127.0.0.1:11434";

/**
 * The local model server's address for a role: `params.base_url`, else
 * `AGENT_LOCAL_RUNTIME_URL`, else `http://127.0.0.1:11434`, without a trailing slash
 * or `/v1` (the agent appends it).
 *
 * @example
 * ```ts
 * import { localRuntimeBase } from "./target.ts";
 * const base = localRuntimeBase({}, { AGENT_LOCAL_RUNTIME_URL: "http://10.0.0.5:11434/" });
 * if (base !== "http://10.0.0.5:11434") throw new Error(base);
 * ```
 */
export function localRuntimeBase(
  params: RoleParams,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const raw = nonEmpty(params.base_url) ?? nonEmpty(env.AGENT_LOCAL_RUNTIME_URL) ??
    DEFAULT_LOCAL_RUNTIME_URL;
  return raw.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** The base URL a hosted provider is called at, or `undefined` for the SDK's default. */
export function providerBaseUrl(
  target: ModelTarget,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (target.provider === "local-runtime") return `${localRuntimeBase(target.params, env)}/v1`;
  const base = nonEmpty(target.params.base_url);
  return base?.replace(/\/+$/, "");
}

/** The default endpoint of each hosted provider, used by the connect probe. */
export function defaultEndpoint(
  target: ModelTarget,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  switch (target.provider) {
    case "vendor-a":
      return "https://api.anthropic.com/v1";
    case "vendor-b":
      return "https://api.openai.com/v1";
    case "vendor-c":
      return "https://generativelanguage.googleapis.com/v1beta";
    case "vendor-d": {
      const region = bedrockRegion(target, env) ?? "us-east-1";
      return `https://bedrock-runtime.${region}.amazonaws.com`;
    }
    default:
      return undefined;
  }
}

/** The vendor-d region: the role's `params.region`, else `VENDOR_D_REGION`. */
export function bedrockRegion(
  target: ModelTarget,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return nonEmpty(target.params.region) ?? nonEmpty(env.VENDOR_D_REGION);
}

/** `value`, or `undefined` when it is missing or empty. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
