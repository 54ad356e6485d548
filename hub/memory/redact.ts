/**
 * `agent memory forget --redact`: the text of forgotten memories cleaned out of the
 * stored transcripts too (every message, tool call, tool result, summary and meta of
 * every session under the sessions folder), so after a forget with it the text is in
 * no file of the data folder. Each match, whatever its case and spacing, becomes
 * `[forgotten]`; a file that changes is written again atomically.
 *
 * @module
 */
import { writeFileAtomic } from "../atomic_file.ts";

/** What a forgotten text becomes in a transcript. */
export const REDACTED = "[forgotten]";

/** A pattern matching `text` in any case and with any spacing. */
function patternOf(text: string): RegExp {
  const words = text.trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(words.join("\\s+"), "giu");
}

/** `value` with every string in it cleaned; `changed` says whether anything was. */
function clean(value: unknown, patterns: readonly RegExp[]): { value: unknown; changed: boolean } {
  if (typeof value === "string") {
    let out = value;
    for (const p of patterns) out = out.replace(p, REDACTED);
    return { value: out, changed: out !== value };
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const c = clean(v, patterns);
      changed ||= c.changed;
      return c.value;
    });
    return { value: out, changed };
  }
  if (value !== null && typeof value === "object") {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const c = clean(v, patterns);
      changed ||= c.changed;
      out[k] = c.value;
    }
    return { value: out, changed };
  }
  return { value, changed: false };
}

/**
 * Cleans `texts` out of every `.json` and `.jsonl` file under `dir`; returns how many
 * files changed. A file that is not JSON is left as it is.
 */
export async function redactTranscripts(dir: string, texts: readonly string[]): Promise<number> {
  const patterns = texts.filter((t) => t.trim() !== "").map(patternOf);
  if (patterns.length === 0) return 0;
  let changed = 0;
  const walk = async (path: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(path)];
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const full = `${path}/${entry.name}`;
      if (entry.isDirectory) await walk(full);
      else if (entry.isFile && (entry.name.endsWith(".json") || entry.name.endsWith(".jsonl"))) {
        if (await redactFile(full, patterns)) changed++;
      }
    }
  };
  await walk(dir);
  return changed;
}

async function redactFile(file: string, patterns: readonly RegExp[]): Promise<boolean> {
  const text = await Deno.readTextFile(file);
  let out: string;
  try {
    if (file.endsWith(".jsonl")) {
      out = text.split("\n").map((line) => {
        if (line.trim() === "") return line;
        return JSON.stringify(clean(JSON.parse(line), patterns).value);
      }).join("\n");
    } else {
      const c = clean(JSON.parse(text), patterns);
      if (!c.changed) return false;
      out = JSON.stringify(c.value);
    }
  } catch {
    return false;
  }
  if (out === text) return false;
  await writeFileAtomic(file, out, { mode: 0o600 });
  return true;
}
