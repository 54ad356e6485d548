/**
 * `deno task lint:doors` (third part): every type a published signature names is
 * published too. It runs `deno doc --lint` over the exports of every workspace member
 * together (as the registry documents them: a type of `@agent/hub` that `@agent/cli`
 * names is documented with the hub) and reports each `private-type-ref`: a public
 * signature naming a type that no door exports, so its documentation would point
 * nowhere. The fix is to export the type through the door (`export type { … }`, never
 * `export *`) or to narrow the signature.
 *
 * A type of an npm package ({@linkcode FOREIGN_TYPES}) is left alone: the package
 * documents it, and re-exporting it would publish its whole API as ours. The other
 * findings of `deno doc --lint` (a missing JSDoc) are not this check's business.
 *
 * One line per problem; exit 1 when there is any.
 *
 * @module
 */
import { readMembers } from "./doors.ts";

/** Types of npm packages that published signatures may name, with their package. */
export const FOREIGN_TYPES: Readonly<Record<string, string>> = {
  ZodType: "zod (a tool's argument schema)",
  output: "zod (a tool's parsed arguments)",
  LanguageModelV4: "@ai-sdk/provider (a provider's model)",
  Command: "commander (a CLI command's definition)",
  Miniflare: "miniflare (the spine and universe on workerd)",
};

/** One `private-type-ref` finding. */
export interface PrivateRef {
  /** The public symbol (`Ledger.prototype.begin`, `RoleConfig["budget"]`). */
  symbol: string;
  /** The type it names that no door exports. */
  type: string;
  /** `file:line` of the reference, relative to the root. */
  at: string;
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const FINDING =
  /public type '([^']+)' references private type '([^']+)'\s*\n\s*--> (\S+?):(\d+):\d+/g;

/** The `private-type-ref` findings in `deno doc --lint` output, without foreign types. */
export function privateRefs(output: string, root: string): PrivateRef[] {
  const text = output.replace(ANSI, "");
  const found = new Map<string, PrivateRef>();
  for (const m of text.matchAll(FINDING)) {
    const [, symbol, type, file, line] = m as unknown as [string, string, string, string, string];
    if (type in FOREIGN_TYPES) continue;
    const at = `${file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file}:${line}`;
    found.set(`${symbol}|${type}`, { symbol, type, at });
  }
  return [...found.values()].sort((a, b) => a.at.localeCompare(b.at));
}

/** Lints the exports of every member of `root` together; returns the findings. */
export async function checkDocRefs(root: string): Promise<PrivateRef[]> {
  const doors = (await readMembers(root)).flatMap((m) => m.doors);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...doors],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder();
  return privateRefs(text.decode(out.stdout) + text.decode(out.stderr), root);
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--root");
  const root = at === -1
    ? new URL("../..", import.meta.url).pathname.replace(/\/$/, "")
    : Deno.realPathSync(Deno.args[at + 1] ?? ".");
  const refs = await checkDocRefs(root);
  for (const r of refs) {
    console.log(`${r.at}: ${r.symbol} names ${r.type}, which no door exports`);
  }
  if (refs.length > 0) {
    console.log(`doc refs: ${refs.length} unpublished type(s) named by published signatures`);
    Deno.exit(1);
  }
  console.log("doc refs: every type a published signature names is published");
}
