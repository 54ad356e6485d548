/**
 * The web chat for the desk suite: the hub (in the test's process, as `agent hub run`
 * assembles it, `tests/_home_hub.ts`) and its dashboard's HTTP API, driven as the page drives it. It signs in with a one-time code, sends lines
 * (`POST chat/send`), cancels (`POST chat/cancel`), decides approvals (`POST
 * approvals/decide`), and reads the desk's events (`GET desk`) and the owner's events
 * (`GET events`) as streams, drawing from them what the page shows: the person's
 * lines with their queue note, the answers, `cancelled`, command output, notices,
 * approval cards and what was decided, and the owner events the overview lists.
 *
 * It proves who it is as the page does, with the session token in `X-Agent-Session`
 * (`tests/_dashboard_session.ts`).
 *
 * @module
 */
import { dashboardSignIn } from "../_dashboard_session.ts";
import { startHomeHub } from "../_home_hub.ts";
import { freePort } from "../_port.ts";
import { until, UNTIL_TIMEOUT_MS } from "../_poll.ts";
import { type Driver, fakeHome, matcher, type Setup } from "./_drivers.ts";

/** Calls `onData` with each `data:` payload of an event stream until `signal` aborts. */
async function follow(
  response: Response,
  onData: (data: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let at: number;
      while ((at = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = block.split("\n").filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trimStart()).join("\n");
        if (data !== "") onData(data);
      }
    }
  } catch {
    // The stream ended with the hub or the test.
  }
}

// deno-lint-ignore no-explicit-any
type Json = any;

/** The web chat: a hub, its dashboard API, and the page's view of it. */
export async function webDriver(setup: Setup): Promise<Driver> {
  const home = await fakeHome({ ...setup, hubPort: freePort() });
  const hub = await startHomeHub(home);
  const port = hub.port;
  const stop = new AbortController();
  const { api } = await dashboardSignIn(port);
  /** The transcript as the page draws it, one entry a bubble or a note. */
  const transcript: string[] = [];
  /** The owner events the overview lists. */
  const owner: string[] = [];
  let session = "";
  let current = "";
  let answer: number | undefined;
  /** Open approval cards: their id and their place in the transcript. */
  const cards = new Map<string, number>();
  const open: string[] = [];
  // Events that come while a line is being sent wait for its answer, as on the page.
  let sending = 0;
  const held: Json[] = [];
  const onDesk = (message: Json) => {
    if (sending > 0) return void held.push(message);
    const { conversation, event } = message;
    if (session === "" || conversation !== `web:${session}`) return;
    switch (event.type) {
      case "TEXT_MESSAGE_START":
        answer = transcript.push("") - 1;
        break;
      case "TEXT_MESSAGE_CONTENT":
        if (answer !== undefined) transcript[answer] += event.delta;
        break;
      case "RUN_FINISHED":
        if (event.outcome.type === "cancelled") transcript.push("cancelled");
        else if (answer !== undefined && event.result?.reply) {
          transcript[answer] = event.result.reply;
        }
        answer = undefined;
        break;
      case "RUN_ERROR":
        transcript.push(event.message);
        answer = undefined;
        break;
      case "CUSTOM":
        if (event.name === "notice") transcript.push(event.value.text);
        else if (event.name === "command.result") transcript.push(event.value.lines.join("\n"));
        else if (event.name === "session.changed") current = event.value.sessionId;
        else if (event.name === "approval.requested") {
          const { id, message, tool, summary } = event.value;
          cards.set(id, transcript.push(`${message}\n${tool}: ${summary}`) - 1);
          open.push(id);
        } else if (event.name === "approval.decided") {
          const at = cards.get(event.value.id);
          if (at !== undefined) transcript[at] += `\nDecided: ${event.value.decision}`;
          open.splice(open.indexOf(event.value.id), 1);
        }
        break;
    }
  };
  const desk = await api("desk");
  const events = await api("events?after=0");
  void follow(desk, (data) => onDesk(JSON.parse(data)), stop.signal);
  void follow(events, (data) => {
    const event = JSON.parse(data);
    owner.push(event.text ?? JSON.stringify(event));
  }, stop.signal);
  const shown = () => [...transcript, ...owner].join("\n");
  const post = async (path: string, body: unknown): Promise<Json> => {
    const res = await api(path, { method: "POST", body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return await res.json();
  };
  return {
    name: "web",
    home,
    // The page's own words (`hub/dashboard/client/i18n.ts`).
    words: {
      queued: /^You · \d+ queued$/m,
      cancelled: /^cancelled$/m,
      expired: /The agent wants to save the note “c”.*\nwrite_note: .*\nDecided: expired/,
    },
    // TODO(#35): the page draws no history on `session.changed` after `/resume`
    // (`hub/dashboard/client/conversations.ts`); the other channels do.
    drawsHistory: false,
    async send(text) {
      sending++;
      try {
        const sent = await post("chat/send", { session: session || undefined, text });
        session = sent.session;
        current ||= sent.session;
        transcript.push(`You${sent.queued > 0 ? ` · ${sent.queued} queued` : ""}\n${text}`);
      } finally {
        sending--;
      }
      if (sending === 0) { for (const message of held.splice(0)) onDesk(message); }
    },
    until(pattern, timeoutMs = UNTIL_TIMEOUT_MS) {
      const test = matcher(pattern);
      return until(() => `${pattern} in the web chat; it shows:\n${shown()}`, () => {
        const text = shown();
        return test(text) ? text : undefined;
      }, { timeoutMs });
    },
    async approve(yes) {
      await until("the approval card", () => open.length > 0);
      const decided = await post("approvals/decide", {
        id: open[0],
        decision: yes ? "once" : "deny",
      });
      if (!decided.decided) throw new Error("the approval was no longer open");
    },
    async cancel() {
      await post("chat/cancel", { session });
    },
    shown,
    sessionId: () => Promise.resolve(current),
    async close() {
      stop.abort();
      await hub.stop();
    },
  };
}
