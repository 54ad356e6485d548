/**
 * Components: the TypeScript form of the spec's entry-point groups. A component is a
 * named piece in one group, shipped by a distribution (`agent-core`, `agent-net`, ...).
 * Built-ins are listed in `hub/app/components.ts`; extra ones come from modules named in
 * `agent.toml` `[components] modules`, each exporting a {@linkcode ComponentManifest}.
 *
 * @module
 */

/** The entry-point groups. */
export type ComponentGroup =
  | "agent.commands"
  | "agent.tools"
  | "agent.providers"
  | "agent.sessions"
  | "agent.channels"
  | "agent.subs";

/** Every group, in the order `agent components` prints them. */
export const COMPONENT_GROUPS: readonly ComponentGroup[] = [
  "agent.commands",
  "agent.tools",
  "agent.providers",
  "agent.sessions",
  "agent.channels",
  "agent.subs",
];

/** Whether `value` names a component group. */
export function isComponentGroup(value: unknown): value is ComponentGroup {
  return typeof value === "string" && (COMPONENT_GROUPS as readonly string[]).includes(value);
}

/** One component as a distribution declares it. */
export interface ComponentSpec {
  group: ComponentGroup;
  /** Unique within its group: a command word, a tool name, a provider id, a backend name. */
  name: string;
  /** `agent.tools` only: the approval tier (0 runs freely, higher asks first). */
  tier?: number;
  /**
   * The component itself, loaded on demand: for `agent.commands` a `CommandModule`,
   * for `agent.subs` a factory, for the other groups what their area defines.
   */
  load?: () => Promise<unknown>;
}

/** A built-in component: a spec plus the built-in distribution that ships it. */
export interface BuiltinComponent extends ComponentSpec {
  distribution: string;
}

/** What an extra component module exports as `manifest`. */
export interface ComponentManifest {
  /** The distribution's name, e.g. `agent-weather`. */
  distribution: string;
  /** The distribution's version. */
  version: string;
  components: ComponentSpec[];
}

/** A component as the registry reports it. */
export interface ComponentInfo extends BuiltinComponent {
  version: string;
  /** `false` when `[components] disabled` names it. */
  enabled: boolean;
  /** Where it came from: `builtin` or the module specifier. */
  source: string;
}

/** A module from `[components] modules` that could not be loaded. */
export interface ComponentLoadError {
  /** The module specifier as written in `agent.toml`. */
  module: string;
  /** One sentence: what failed. */
  detail: string;
}
