/**
 * `deno run -A _tools/file_times.ts OUT [--ignore=a,b] <deno test flags> -- <roots>`: runs
 * every test file under the roots alone, one after another (`deno test <flags> FILE`), and
 * writes the seconds each took to OUT as a JSON object, the weights `_tools/test_shards.ts
 * --times` shares the files out by. `deno task test:e2e` reads `_tools/e2e_times.json`,
 * made with the end-to-end layer's flags and roots; run it again when files have been added
 * or have grown much slower (a file it does not name is weighed by its size). The run takes
 * as long as the files do one at a time, ~15 minutes for that layer on 2 cores.
 *
 * @module
 */
import { TEST_FILE, walk } from "./test_shards.ts";

const [out, ...rest] = Deno.args;
const split = rest.indexOf("--");
if (out === undefined || out.startsWith("-") || split < 0) {
  console.error("Usage: _tools/file_times.ts OUT [--ignore=a,b] <deno test flags> -- <roots>");
  Deno.exit(2);
}
const ignore = rest.slice(0, split).filter((a) => a.startsWith("--ignore="))
  .flatMap((a) => a.slice(9).split(",").filter(Boolean));
const flags = rest.slice(0, split).filter((a) => !a.startsWith("--ignore="));
const root = `${Deno.cwd()}/`;
const files = (await Promise.all(rest.slice(split + 1).map((r) => walk(`${root}${r}`)))).flat()
  .map((path) => path.slice(root.length))
  .filter((name) => TEST_FILE.test(name.split("/").pop()!))
  .filter((name) => !ignore.some((i) => name === i || name.startsWith(i.replace(/\/?$/, "/"))));
const times: Record<string, number> = {};
let failed = 0;
for (const [i, name] of files.entries()) {
  const start = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", ...flags, name],
    stdout: "null",
    stderr: "null",
  }).output();
  const seconds = Math.round((performance.now() - start) / 100) / 10;
  times[name] = seconds;
  if (code !== 0) failed++;
  console.log(`${i + 1}/${files.length} ${name} ${seconds} s${code === 0 ? "" : " (failed)"}`);
}
await Deno.writeTextFile(out, JSON.stringify(times, null, 2) + "\n");
console.log(`${out}: ${files.length} files${failed ? `, ${failed} failed (times kept)` : ""}`);
