/**
 * Which credentials each provider needs (the spec's Authentication table), checked
 * without building a client. Keys live in `<AGENT_HOME>/.env` or the environment.
 *
 * @module
 */

/** A provider id, as the spec names it. */
export type ProviderId =
  | "vendor-a"
  | "vendor-b"
  | "vendor-c"
  | "local-runtime"
  | "vendor-d"
  | "fake";

/** Every provider id, in the spec's order. */
export const PROVIDERS: readonly [ProviderId, ...ProviderId[]] = [
  "vendor-a",
  "vendor-b",
  "vendor-c",
  "local-runtime",
  "vendor-d",
  "fake",
];

/** What the credential check reads of a role or a fallback. */
export interface CredentialSource {
  provider: ProviderId;
  params?: { api_key_env?: string | undefined; region?: string | undefined } | undefined;
}

/** The variable holding each key-based provider's key, unless `params.api_key_env` says otherwise. */
export const KEY_VARIABLES: Readonly<Record<"vendor-a" | "vendor-b" | "vendor-c", string>> = {
  "vendor-a": "VENDOR_A_API_KEY",
  "vendor-b": "VENDOR_B_API_KEY",
  "vendor-c": "VENDOR_C_API_KEY",
};

/** Every credential-related variable per provider, in the order `.env.example` lists them. */
export const CREDENTIAL_VARIABLES: Readonly<Record<ProviderId, readonly string[]>> = {
  "vendor-a": ["VENDOR_A_API_KEY", "VENDOR_A_WORKSPACE_ID"],
  "vendor-b": ["VENDOR_B_API_KEY"],
  "vendor-c": ["VENDOR_C_API_KEY", "VENDOR_C_ALT_API_KEY"],
  "local-runtime": ["AGENT_LOCAL_RUNTIME_URL"],
  "vendor-d": [
    "VENDOR_D_REGION",
    "VENDOR_D_PROFILE",
    "VENDOR_D_ACCESS_KEY_ID",
    "VENDOR_D_SECRET_ACCESS_KEY",
    "VENDOR_D_SESSION_TOKEN",
    "VENDOR_D_BEARER_TOKEN",
  ],
  fake: [],
};

/** The variables a credential check reads: `.env` with the environment on top. */
export type CredentialEnv = Readonly<Record<string, string | undefined>>;

function has(env: CredentialEnv, name: string): boolean {
  const value = env[name];
  return value !== undefined && value.trim() !== "";
}

/**
 * The first variable `role`'s provider still needs, or `undefined` when its
 * credentials are complete.
 *
 * @example
 * ```ts
 * import { missingCredential } from "./credentials.ts";
 * const role = { provider: "vendor-b" as const, model_id: "m", params: {} };
 * if (missingCredential(role, {}) !== "VENDOR_B_API_KEY") throw new Error();
 * if (missingCredential(role, { VENDOR_B_API_KEY: "k" }) !== undefined) throw new Error();
 * ```
 */
export function missingCredential(
  role: CredentialSource,
  env: CredentialEnv,
): string | undefined {
  const params = role.params ?? {};
  switch (role.provider) {
    case "vendor-a":
    case "vendor-b": {
      const name = params.api_key_env ?? KEY_VARIABLES[role.provider];
      return has(env, name) ? undefined : name;
    }
    case "vendor-c": {
      if (params.api_key_env !== undefined) {
        return has(env, params.api_key_env) ? undefined : params.api_key_env;
      }
      return has(env, "VENDOR_C_API_KEY") || has(env, "VENDOR_C_ALT_API_KEY")
        ? undefined
        : "VENDOR_C_API_KEY";
    }
    case "vendor-d": {
      const region = params.region !== undefined && params.region.trim() !== "";
      if (!region && !has(env, "VENDOR_D_REGION")) return "VENDOR_D_REGION";
      if (has(env, "VENDOR_D_PROFILE") || has(env, "VENDOR_D_BEARER_TOKEN")) return undefined;
      const id = has(env, "VENDOR_D_ACCESS_KEY_ID");
      const secret = has(env, "VENDOR_D_SECRET_ACCESS_KEY");
      if (id && secret) return undefined;
      if (id) return "VENDOR_D_SECRET_ACCESS_KEY";
      if (secret) return "VENDOR_D_ACCESS_KEY_ID";
      return "VENDOR_D_PROFILE";
    }
    case "local-runtime":
    case "fake":
      return undefined;
  }
}

/** Whether `provider` has complete credentials in `env` with no `params`. */
export function hasCredentials(provider: ProviderId, env: CredentialEnv): boolean {
  return missingCredential({ provider, params: {} }, env) === undefined;
}

/** What a credential variable's value is for a configuration: see {@linkcode credentialState}. */
export type CredentialState = "set" | "missing" | "optional";

/**
 * What one credential variable is for the given roles and fallbacks: `set` (it has a
 * value), `missing` (a target cannot answer without it: {@linkcode missingCredential}
 * names it), or `optional` (unset, and nothing needs it: a default stands in, as for
 * `AGENT_LOCAL_RUNTIME_URL`, or another variable does, as `VENDOR_C_API_KEY` does for
 * `VENDOR_C_ALT_API_KEY`). `/settings` lists these, so an optional variable does not read
 * as something to fix.
 *
 * @example
 * ```ts
 * import { credentialState } from "./credentials.ts";
 * const local = [{ provider: "local-runtime" as const }];
 * if (credentialState("AGENT_LOCAL_RUNTIME_URL", local, {}) !== "optional") throw new Error();
 * const b = [{ provider: "vendor-b" as const }];
 * if (credentialState("VENDOR_B_API_KEY", b, {}) !== "missing") throw new Error();
 * ```
 */
export function credentialState(
  name: string,
  targets: readonly CredentialSource[],
  env: CredentialEnv,
): CredentialState {
  if (has(env, name)) return "set";
  return targets.some((target) => missingCredential(target, env) === name) ? "missing" : "optional";
}
