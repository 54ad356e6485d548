/**
 * Another process that appends an owner event to a data folder, as a CLI command does
 * when no hub runs in it: `deno run _append_event.ts <net dir> <event JSON> [count]`.
 * Prints one line per event, `<event_id> <epoch ms after the append>`.
 *
 * @module
 */
import { appendNetEvent, type NetEvent } from "@agent/hub";

const [netDir, json, count = "1"] = Deno.args;
if (netDir === undefined || json === undefined) {
  console.error("usage: _append_event.ts <net dir> <event JSON> [count]");
  Deno.exit(2);
}
const event = JSON.parse(json) as NetEvent;
for (let i = 0; i < Number(count); i++) {
  const written = await appendNetEvent(netDir, event);
  console.log(`${written.event_id} ${Date.now()}`);
}
