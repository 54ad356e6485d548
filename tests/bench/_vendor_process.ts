/**
 * The loopback provider of `context_bench.ts` in a process of its own, so the hub
 * side's memory is measured without the server's: prints its URL, then one line per
 * request, `<model> <body bytes>`. The reply is the first argument.
 *
 * @module
 */
import { startVendorServer } from "../_vendor_server.ts";

const server = startVendorServer({
  reply: Deno.args[0] ?? "Okay.",
  onRequest(request, bytes) {
    const model = (request.body as { model?: unknown } | undefined)?.model;
    console.log(`${typeof model === "string" ? model : "-"} ${bytes}`);
  },
});
console.log(server.url);
Deno.addSignalListener("SIGTERM", () => server.close().then(() => Deno.exit(0)));
