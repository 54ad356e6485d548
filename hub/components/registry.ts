/**
 * The component registry: built-ins plus the modules named in `[components] modules`.
 * A module that fails to load is reported (doctor, `agent components`), never thrown.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import { t } from "./_messages.ts";
import { DISTRIBUTIONS, VERSION } from "../version.ts";
import type {
  BuiltinComponent,
  ComponentGroup,
  ComponentInfo,
  ComponentLoadError,
  ComponentManifest,
} from "./types.ts";
import { errorLine } from "@agent/net/common";

/** The registry's view of every component. */
export interface Registry {
  /** Every component, built-in first, then extra modules in the order listed. */
  components: ComponentInfo[];
  /** Modules that could not be loaded. */
  errors: ComponentLoadError[];
  /** Names in `[components] disabled` that no component has. */
  unknownDisabled: string[];
}

/** Options for {@linkcode loadRegistry}. */
export interface LoadRegistryOptions {
  /** The built-in components (the hub's wiring holds the table). */
  builtins: readonly BuiltinComponent[];
  /** Extra built-ins (the CLI passes the commands of `cli/commands/_registry.ts`). */
  extraBuiltins?: readonly { group: ComponentGroup; name: string; distribution?: string }[];
  /** Language of load-error details. @default "en" */
  lang?: Lang;
  /** Imports a module specifier. @default dynamic `import()` */
  importModule?: (specifier: string) => Promise<Record<string, unknown>>;
}

/**
 * Builds the registry for `config` (`undefined`: built-ins only, none disabled).
 * Relative module paths resolve against the agent home.
 */
export async function loadRegistry(
  config: AgentConfig | undefined,
  paths: AgentPaths,
  options: LoadRegistryOptions,
): Promise<Registry> {
  const disabled = new Set(config?.components.disabled ?? []);
  const components: ComponentInfo[] = [];
  const versionOf = (distribution: string) =>
    DISTRIBUTIONS.find((d) => d.name === distribution)?.version ?? VERSION;
  const add = (info: Omit<ComponentInfo, "enabled">) => {
    if (components.some((c) => c.group === info.group && c.name === info.name)) return;
    components.push({ ...info, enabled: !disabled.has(info.name) });
  };
  for (const c of options.builtins) {
    add({ ...c, version: versionOf(c.distribution), source: "builtin" });
  }
  for (const c of options.extraBuiltins ?? []) {
    const distribution = c.distribution ?? "agent-core";
    add({
      group: c.group,
      name: c.name,
      distribution,
      version: versionOf(distribution),
      source: "builtin",
    });
  }
  const errors: ComponentLoadError[] = [];
  const lang = options.lang ?? "en";
  const importModule = options.importModule ??
    ((specifier: string) => import(specifier) as Promise<Record<string, unknown>>);
  for (const module of config?.components.modules ?? []) {
    try {
      const loaded = await importModule(resolveSpecifier(module, paths.home));
      if (loaded.manifest === undefined) {
        errors.push({ module, detail: t(lang, "no_manifest") });
        continue;
      }
      // The schema (zod) loads only for a home that lists a module.
      const { manifestProblem } = await import("./_manifest.ts");
      const where = manifestProblem(loaded.manifest);
      if (where !== undefined) {
        errors.push({ module, detail: t(lang, "bad_manifest", { where }) });
        continue;
      }
      const manifest = loaded.manifest as ComponentManifest;
      for (const spec of manifest.components) {
        add({
          ...spec,
          distribution: manifest.distribution,
          version: manifest.version,
          source: module,
        });
      }
    } catch (error) {
      errors.push({ module, detail: errorLine(error) });
    }
  }
  const unknownDisabled = [...disabled].filter((name) => !components.some((c) => c.name === name));
  return { components, errors, unknownDisabled };
}

/** Turns a `[components] modules` entry into an import specifier. */
export function resolveSpecifier(module: string, home: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(module)) return module;
  if (module.startsWith("/")) return `file://${module}`;
  const base = home.endsWith("/") ? home : `${home}/`;
  return new URL(module, `file://${base}`).href;
}
