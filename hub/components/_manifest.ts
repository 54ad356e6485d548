/**
 * The shape a `[components] modules` entry's `manifest` must have. Its own module so
 * that zod loads only when a home lists such a module: `agent doctor`, `agent
 * components` and the hub's start read the registry with built-ins alone otherwise.
 *
 * @module
 */
import { z } from "zod";
import { COMPONENT_GROUPS, type ComponentGroup } from "./types.ts";

const specSchema = z.object({
  group: z.enum(COMPONENT_GROUPS as unknown as [ComponentGroup, ...ComponentGroup[]]),
  name: z.string().min(1),
  tier: z.number().int().min(0).optional(),
  load: z.function().optional(),
});

const manifestSchema = z.object({
  distribution: z.string().min(1),
  version: z.string().min(1),
  components: z.array(specSchema),
});

/**
 * Where `manifest` breaks the shape (`"manifest"`, or the path of its first bad field,
 * such as `components.0.group`), or `undefined` when it has it.
 */
export function manifestProblem(manifest: unknown): string | undefined {
  const parsed = manifestSchema.safeParse(manifest);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return issue === undefined || issue.path.length === 0 ? "manifest" : issue.path.join(".");
}
