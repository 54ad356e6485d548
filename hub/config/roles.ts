/**
 * Looking a role up by a name someone typed (a flag, a page's form, a remembered
 * session): `[models.roles]` is a plain object, so `roles["constructor"]` or
 * `"toString" in roles` finds `Object.prototype`'s members and a check like
 * `roles[name] === undefined` lets such a name through (the dashboard's Settings then
 * wrote a `[models.roles.constructor]` table). Only the file's own keys are roles.
 *
 * @module
 */
import type { AgentConfig, RoleConfig } from "./types.ts";

/**
 * The role `name` when `agent.toml` defines it, else `undefined`; never a member of
 * `Object.prototype`.
 *
 * @example
 * ```ts
 * import { roleNamed } from "./roles.ts";
 * const config = { models: { roles: { brain: {} } } } as unknown as Parameters<typeof roleNamed>[0];
 * if (roleNamed(config, "brain") === undefined) throw new Error();
 * if (roleNamed(config, "constructor") !== undefined) throw new Error();
 * if (roleNamed(config, "toString") !== undefined) throw new Error();
 * ```
 */
export function roleNamed(
  config: Pick<AgentConfig, "models">,
  name: string,
): RoleConfig | undefined {
  const roles = config.models.roles;
  return Object.hasOwn(roles, name) ? roles[name] : undefined;
}

/** Whether `agent.toml` defines the role `name` (see {@linkcode roleNamed}). */
export function hasRole(config: Pick<AgentConfig, "models">, name: string): boolean {
  return Object.hasOwn(config.models.roles, name);
}
