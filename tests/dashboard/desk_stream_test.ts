/**
 * The web chat's desk stream (`GET /dashboard/api/desk`) through the one SSE writer of
 * `@agent/net`: each event carries an id, a client that lost the line comes back with
 * `Last-Event-ID` and gets exactly what it missed, then live events; an id the hub does
 * not know is said to be reset. A real hub on a loopback port.
 */
import assert from "node:assert/strict";
import { dashboardLogin } from "../_dashboard_session.ts";
import { startDashboardHub } from "../_hub_in_process.ts";
import { until } from "../_poll.ts";

/** The events of an open stream: `{id, data}` for each one with data, comments apart. */
function events(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const comments: string[] = [];
  return {
    comments,
    /** The next event with data. */
    async next(): Promise<{ id: string; data: string }> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          for (const line of block.split("\n")) {
            if (line.startsWith(": ")) comments.push(line.slice(2));
          }
          if (data !== undefined && id !== undefined) return { id, data };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffer += value;
      }
    },
    close: () => reader.cancel(),
  };
}

Deno.test({
  name:
    "dashboard desk stream: events carry ids; a client back with Last-Event-ID gets exactly what it missed",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using hub = await startDashboardHub({ replies: ["First reply.", "Second reply."] });
    const { api } = await dashboardLogin(hub.base, await hub.code());
    const send = async (text: string, chat?: string) => {
      const res = await api("chat/send", {
        method: "POST",
        body: JSON.stringify({ text, ...(chat ? { session: chat } : {}) }),
      });
      return (await res.json() as { session: string }).session;
    };
    const stream = (headers: Record<string, string> = {}) => api("desk", { headers });

    // Live: a turn's events, each with its own id.
    const first = events(await stream());
    const chat = await send("hello");
    const seen: { id: string; type: string }[] = [];
    for (;;) {
      const e = await first.next();
      const { event } = JSON.parse(e.data) as { event: { type: string } };
      seen.push({ id: e.id, type: event.type });
      if (event.type === "RUN_FINISHED") break;
    }
    assert.equal(new Set(seen.map((s) => s.id)).size, seen.length, "ids are unique");
    await first.close();

    // Away while the next turn runs: back with the last id, it gets that turn whole.
    const last = seen.at(-1)!.id;
    await send("again", chat);
    // The turn ends while no one listens.
    await until("the second turn ends", async () => {
      const t = await api(`transcript?session=${chat}`);
      const body = await t.json() as { busy: boolean; lines: unknown[] };
      return !body.busy && body.lines.length >= 4;
    });
    const resumed = events(await stream({ "last-event-id": last }));
    const missed: string[] = [];
    for (;;) {
      const e = await resumed.next();
      const { event } = JSON.parse(e.data) as { event: { type: string; delta?: string } };
      missed.push(event.type === "TEXT_MESSAGE_CONTENT" ? event.delta! : event.type);
      if (event.type === "RUN_FINISHED") break;
    }
    await resumed.close();
    assert.equal(missed[0], "RUN_STARTED", "nothing from before the id came again");
    assert.match(missed.join(""), /Second reply\./);
    assert.ok(!missed.join("").includes("First reply."));

    // An id from another hub (or too old): the client is told to start afresh.
    const lost = events(await stream({ "last-event-id": "0-1" }));
    await send("third", chat);
    await lost.next();
    assert.ok(lost.comments.some((c) => c.startsWith("reset")), String(lost.comments));
    await lost.close();
  },
});
