/**
 * The keys `agent.toml` takes, read from its schema: for the "did you mean" of an
 * unknown key, and for the docs test that checks `docs/configuration.md`'s tables
 * against the code.
 *
 * @module
 */
import type { z } from "zod";
import { configSchema } from "./_schema.ts";

type Node = z.ZodType & { _zod: { def: Record<string, unknown> } };

/** `schema` without its `.optional()` wrappers. */
function unwrap(schema: Node): Node {
  let node = schema;
  while (node._zod.def.type === "optional" || node._zod.def.type === "default") {
    node = node._zod.def.innerType as Node;
  }
  return node;
}

/**
 * The keys of the table at `path` (`[]` is the top, `["models", "roles", "brain"]` a
 * role: a record's own names are skipped), or `undefined` when `path` is no table.
 *
 * @example
 * ```ts
 * import { configKeys } from "./keys.ts";
 * if (!configKeys(["messenger"])?.includes("allowed_chat_ids")) throw new Error();
 * if (!configKeys(["models", "roles", "brain"])?.includes("model_id")) throw new Error();
 * ```
 */
export function configKeys(path: readonly PropertyKey[]): string[] | undefined {
  let node = unwrap(configSchema as unknown as Node);
  for (const step of path) {
    if (typeof step !== "string") return undefined;
    if (node._zod.def.type === "record") {
      node = unwrap(node._zod.def.valueType as Node);
      continue;
    }
    const shape = node._zod.def.shape as Record<string, Node> | undefined;
    const next = shape?.[step];
    if (next === undefined) return undefined;
    node = unwrap(next);
  }
  if (node._zod.def.type === "record") return undefined;
  const shape = node._zod.def.shape as Record<string, Node> | undefined;
  return shape === undefined ? undefined : Object.keys(shape);
}

/**
 * The known key `key` was most likely meant to be: one or two letters away (a typo, a
 * swap), or the same key in another case or with `-` for `_`; `undefined` when none is.
 *
 * @example
 * ```ts
 * import { suggestKey } from "./keys.ts";
 * if (suggestKey("modle_id", ["provider", "model_id"]) !== "model_id") throw new Error();
 * if (suggestKey("colour", ["lang"]) !== undefined) throw new Error();
 * ```
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replaceAll("-", "_");
  const exact = known.find((k) => plain(k) === plain(key));
  if (exact !== undefined) return exact;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(plain(key), candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  const allowed = key.length <= 4 ? 1 : 2;
  return bestDistance <= allowed ? best : undefined;
}

/** Levenshtein distance, a swap of two neighbours counting one (Damerau's). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
