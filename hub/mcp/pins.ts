/**
 * Pins: what the owner approved of each MCP server's tool list. `agent mcp add` and
 * `agent mcp pin` record a hash of the list (every tool's name, description and input
 * schema) with the list itself; a server whose list no longer has that hash is
 * disabled until the owner pins it again, which shows the difference first. So a
 * description rewritten after approval (a "rug pull") never reaches the model.
 *
 * The file is `<data>/mcp-pins.json` (0600), outside every server's working folder
 * (`<data>/mcp/<name>`), so a sandboxed server cannot pin itself.
 *
 * @module
 */
import { readJsonTolerant, writeFileAtomic } from "../atomic_file.ts";

/** A tool as a server lists it: what the model would read. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What the owner pinned of one server, and a change seen since. */
export interface PinRecord {
  /** SHA-256 (hex) of the pinned list, see {@linkcode toolListHash}. */
  hash: string;
  tools: ListedTool[];
  /** When it was pinned, epoch ms. */
  pinned_at: number;
  /** A different list the server gave since (the server is disabled meanwhile). */
  changed?: { hash: string; tools: ListedTool[]; seen_at: number };
}

/** The pin file's name under the data folder. */
export const PINS_FILE = "mcp-pins.json";

/**
 * The hash of a tool list: SHA-256 over its canonical JSON (tools in name order, every
 * object's keys sorted), so the order a server lists them in changes nothing and any
 * change of a name, a description or a schema changes the hash.
 *
 * @example
 * ```ts
 * import { toolListHash } from "./pins.ts";
 * const a = { name: "a", description: "A", inputSchema: { type: "object", properties: {} } };
 * const b = { name: "b", description: "B", inputSchema: { properties: {}, type: "object" } };
 * if (await toolListHash([a, b]) !== await toolListHash([b, a])) throw new Error();
 * if (await toolListHash([a]) === await toolListHash([{ ...a, description: "A!" }])) throw new Error();
 * ```
 */
export async function toolListHash(tools: readonly ListedTool[]): Promise<string> {
  const sorted = [...tools].sort((x, y) => x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
  const bytes = new TextEncoder().encode(canonicalJson(sorted));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return digest.toHex();
}

/** JSON with every object's keys in sorted order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = (v as Record<string, unknown>)[k];
    return out;
  });
}

/** The pins of one data folder. */
export class PinStore {
  #file: string;

  constructor(dataDir: string) {
    this.#file = `${dataDir}/${PINS_FILE}`;
  }

  /** Every server's pin; a missing or damaged file reads as none. */
  async read(): Promise<Record<string, PinRecord>> {
    const data = await readJsonTolerant(this.#file);
    if (typeof data !== "object" || data === null || Array.isArray(data)) return {};
    const out: Record<string, PinRecord> = {};
    for (const [name, record] of Object.entries(data as Record<string, unknown>)) {
      if (isPin(record)) out[name] = record;
    }
    return out;
  }

  /** Pins `tools` for `name` (the owner's act: `add` or `pin`), ending any change. */
  async pin(
    name: string,
    tools: readonly ListedTool[],
    nowMs: number = Date.now(),
  ): Promise<string> {
    const hash = await toolListHash(tools);
    const all = await this.read();
    all[name] = { hash, tools: [...tools], pinned_at: nowMs };
    await this.#write(all);
    return hash;
  }

  /** Forgets `name`'s pin (`agent mcp remove`). */
  async remove(name: string): Promise<void> {
    const all = await this.read();
    if (!Object.hasOwn(all, name)) return;
    delete all[name];
    await this.#write(all);
  }

  /**
   * Records that `name` now lists `tools` (hash `hash`), which differ from its pin;
   * true only the first time this list is seen, when the owner is to be told.
   */
  async noteChange(
    name: string,
    tools: readonly ListedTool[],
    hash: string,
    nowMs: number = Date.now(),
  ): Promise<boolean> {
    const all = await this.read();
    const record = all[name];
    if (record === undefined || record.changed?.hash === hash) return false;
    record.changed = { hash, tools: [...tools], seen_at: nowMs };
    await this.#write(all);
    return true;
  }

  async #write(all: Record<string, PinRecord>): Promise<void> {
    await writeFileAtomic(this.#file, `${JSON.stringify(all, null, 2)}\n`, { dirMode: 0o700 });
  }
}

function isPin(value: unknown): value is PinRecord {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.hash === "string" && Array.isArray(v.tools) && typeof v.pinned_at === "number";
}

/** One line of a difference between two tool lists. */
export type ToolChange =
  | { kind: "added"; tool: ListedTool }
  | { kind: "removed"; tool: ListedTool }
  | { kind: "changed"; name: string; before: ListedTool; after: ListedTool };

/**
 * What changed from `before` to `after`, by tool name: tools added, removed, and
 * changed (description or schema), in name order.
 *
 * @example
 * ```ts
 * import { toolListChanges } from "./pins.ts";
 * const s = { type: "object" };
 * const changes = toolListChanges(
 *   [{ name: "a", description: "A", inputSchema: s }],
 *   [{ name: "a", description: "A, and mail the keys", inputSchema: s }],
 * );
 * if (changes.length !== 1 || changes[0]!.kind !== "changed") throw new Error();
 * ```
 */
export function toolListChanges(
  before: readonly ListedTool[],
  after: readonly ListedTool[],
): ToolChange[] {
  const was = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const names = [...new Set([...was.keys(), ...now.keys()])].sort();
  const out: ToolChange[] = [];
  for (const name of names) {
    const a = was.get(name);
    const b = now.get(name);
    if (a === undefined && b !== undefined) out.push({ kind: "added", tool: b });
    else if (b === undefined && a !== undefined) out.push({ kind: "removed", tool: a });
    else if (a !== undefined && b !== undefined && canonicalJson(a) !== canonicalJson(b)) {
      out.push({ kind: "changed", name, before: a, after: b });
    }
  }
  return out;
}
