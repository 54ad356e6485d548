const gc = () => (globalThis as any).gc?.();
const wait = () => new Promise((r) => setTimeout(r, 300));
const rss = () => Deno.memoryUsage().rss / 1048576;
await import("./hub/mod.ts");
await import("./hub/app/start.ts");
gc(); await wait(); gc();
let last = rss();
console.log("hub".padEnd(40), last.toFixed(1));
for (const m of Deno.args) {
  await import(m);
  gc(); await wait(); gc();
  const now = rss();
  console.log(m.padEnd(40), (now - last).toFixed(1), "MiB");
  last = now;
}
