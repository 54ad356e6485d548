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

/** A role as the credential lines read it: its target and its fallback's. */
export interface CredentialRole extends CredentialSource {
  model_id: string;
  fallback?: (CredentialSource & { model_id: string }) | undefined;
}

/** One credential variable, as the settings screens list it. */
export interface CredentialLine {
  name: string;
  /** The roles whose provider reads it, as `role (provider model)`. */
  roles: string[];
  /** `needed`: a role cannot answer without it; `set`; or `optional` (not set). */
  state: "needed" | "set" | "optional";
}

/**
 * The variables each role's provider reads (its own, or its fallback's): the ones a
 * role still needs first, then those set, then the optional ones. The TUI's settings
 * screen and the `/settings` picker list these.
 *
 * @example
 * ```ts
 * import { credentialLines } from "./credentials.ts";
 * const roles = { brain: { provider: "vendor-b" as const, model_id: "m" } };
 * const [line] = credentialLines(roles, {});
 * if (line?.name !== "VENDOR_B_API_KEY" || line.state !== "needed") throw new Error();
 * ```
 */
export function credentialLines(
  roles: Readonly<Record<string, CredentialRole>>,
  env: CredentialEnv,
): CredentialLine[] {
  const lines = new Map<string, CredentialLine>();
  const needed = new Set<string>();
  for (const [role, r] of Object.entries(roles)) {
    const missing = missingCredential(r, env);
    // A fallback with its key answers for the role: nothing is needed then.
    const fallbackOk = r.fallback !== undefined && missingCredential(r.fallback, env) === undefined;
    if (missing !== undefined && !fallbackOk) needed.add(missing);
    for (const target of [r, ...(r.fallback ? [r.fallback] : [])]) {
      const names = target.params?.api_key_env
        ? [target.params.api_key_env]
        : CREDENTIAL_VARIABLES[target.provider];
      for (const name of names) {
        const line = lines.get(name) ?? { name, roles: [], state: "optional" };
        const label = `${role} (${target.provider} ${target.model_id})`;
        if (!line.roles.includes(label)) line.roles.push(label);
        lines.set(name, line);
      }
    }
  }
  const order = { needed: 0, set: 1, optional: 2 } as const;
  return [...lines.values()].map((line) => ({
    ...line,
    state: needed.has(line.name)
      ? "needed" as const
      : has(env, line.name)
      ? "set" as const
      : "optional" as const,
  })).sort((a, b) => order[a.state] - order[b.state]);
}
