/**
 * The Conversations page: the sessions of every channel (searchable, `session_list.ts`), a session's
 * transcript with Markdown rendered as DOM (never HTML), and the chat pane that
 * continues it in the browser over the desk (`web:<session>`): answers stream in,
 * approvals are buttons, an answer can be cancelled, lines typed meanwhile queue, and
 * each answer ends with its model, tokens and cost.
 *
 * An approval card never takes the focus: the person may be typing, and the next space
 * would press its first button. It is announced in a live region and decided by a click
 * or its own shortcut (Alt+Shift+Y allow once, Alt+Shift+N deny, keys no text uses),
 * neither counting in its first half second (`approvals.ts`). A line sent meanwhile is
 * queued by the desk and shown as queued.
 *
 * @module
 */
import { failureText, get, post, unreachable } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t, usd } from "./i18n.ts";
import { markdown } from "./markdown.ts";
import { type ApprovalCard, approvalCard } from "./approvals.ts";
import { sessionList } from "./session_list.ts";
import type { DeskMessage } from "./types.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Renders the page; `arg` is the open session, if any. */
export async function conversations(
  main: HTMLElement,
  arg: string,
  live: EventTarget,
): Promise<void> {
  let session = arg;
  const { search, list, load: loadList } = sessionList(live, () => session);
  const pane = h("section", { class: "pane", "aria-label": t("nav_conversations") });
  replace(
    main,
    h("h1", {}, t("nav_conversations")),
    h(
      "div",
      { class: "convo" },
      h(
        "div",
        { class: "list" },
        search,
        h("button", {
          type: "button",
          class: "primary",
          id: "new-chat",
          onclick: () => {
            session = "";
            location.hash = "#/conversations";
            void openPane();
          },
        }, t("new_chat")),
        list,
      ),
      pane,
    ),
  );
  await loadList();
  const openPane = async () => {
    const view = await chatPane(session, live, (id) => {
      if (id !== session) {
        session = id;
        history.replaceState(null, "", `#/conversations/${encodeURIComponent(id)}`);
        void loadList();
      }
    });
    replace(pane, view);
    // A conversation opens where it stands: at its last answer.
    const log = pane.querySelector<HTMLElement>(".transcript");
    if (log) log.scrollTop = log.scrollHeight;
  };
  await openPane();
}

/** The transcript and the composer of `session` ("" for a new one). */
async function chatPane(
  initial: string,
  live: EventTarget,
  onSession: (id: string) => void,
): Promise<HTMLElement> {
  let session = initial;
  const transcript = h("div", {
    class: "transcript",
    role: "log",
    "aria-live": "polite",
    "aria-label": t("nav_conversations"),
  });
  const status = h("p", { class: "muted", id: "chat-status", "aria-live": "polite" });
  // Says an approval appeared, wherever the focus is (it stays where the person is).
  const announce = h("p", { class: "sr-only", id: "approval-live", "aria-live": "assertive" });
  // The person's lines typed during an answer wait at the transcript's end, marked queued;
  // everything the current answer adds goes above them, and each moves up, unmarked, when
  // its own answer starts: every answer under its question.
  const queuedLines: { el: HTMLElement; text: string }[] = [];
  const add = (el: HTMLElement) => transcript.insertBefore(el, queuedLines[0]?.el ?? null);
  let waiting = 0;
  let runStart = 0;
  let busy = false;
  const approvals = new Map<string, ApprovalCard>();
  const pending = () => [...approvals.values()].filter((a) => a.open());
  // Written only when it changes: a text node replaced on every streamed word made the
  // page lay itself out again for each.
  const showStatus = () => {
    const text = [
      pending().length > 0 ? t("waiting_decision") : busy ? t("busy") : "",
      waiting > 0 ? t("queued", { n: waiting }) : "",
    ].filter(Boolean).join(" · ");
    if (status.textContent !== text) status.textContent = text;
  };
  // Shown and announced; the focus stays in the message box or wherever it is.
  const showApproval = (request: Json) => {
    if (approvals.has(request.id)) return;
    const approval = approvalCard(request);
    approvals.set(request.id, approval);
    approval.card.appendChild(h("p", { class: "muted keys" }, t("approval_keys")));
    add(approval.card);
    announce.textContent = t("approval_live", {
      message: request.message,
      keys: t("approval_keys"),
    });
  };
  if (session !== "") {
    const data = await get<Json>(`transcript?session=${encodeURIComponent(session)}`);
    for (const entry of data.entries) {
      if (entry.role === "tool") {
        transcript.appendChild(
          h("p", { class: `tool-step ${entry.ran ? "ran" : "refused"}` }, entry.text),
        );
        continue;
      }
      const el = bubble(entry.role, entry.text);
      if (entry.usage) el.appendChild(metaLine(entry.usage));
      transcript.appendChild(el);
    }
    busy = data.busy;
    waiting = data.waiting;
    for (const request of data.approvals ?? []) showApproval(request);
    showStatus();
  }
  const input = h("textarea", { id: "message", rows: 2, "aria-label": t("message_label") });
  // Events that arrive while a line is being sent wait for its answer (a new session's
  // id is known only then), so the person's line shows before the reply to it.
  let sending = 0;
  const held: Event[] = [];
  const said = h("p", { class: "send-failed", role: "alert", hidden: true });
  const send = async () => {
    const text = input.value;
    if (text.trim() === "") return;
    input.value = "";
    said.hidden = true;
    sending++;
    try {
      const answer = await post<{ session: string; queued: number }>("chat/send", {
        session: session || undefined,
        text,
      });
      session = answer.session;
      onSession(session);
      waiting = answer.queued;
      const el = bubble("user", text, answer.queued > 0 ? t("queued_line") : "");
      if (answer.queued > 0) {
        transcript.appendChild(el);
        queuedLines.push({ el, text });
      } else add(el);
    } catch (error) {
      // Nothing is lost: the line goes back into the box (before anything typed since).
      input.value = input.value === "" ? text : `${text}\n${input.value}`;
      said.textContent = unreachable(error)
        ? t("send_unreachable")
        : failureText(error, (e) => t("error", { detail: String(e) }));
      said.hidden = false;
    } finally {
      sending--;
    }
    if (sending === 0) { for (const ev of held.splice(0)) onDesk(ev); }
    transcript.scrollTop = transcript.scrollHeight;
    showStatus();
  };
  const form = h(
    "form",
    {
      class: "composer",
      onsubmit: (e: Event) => {
        e.preventDefault();
        void send();
      },
    },
    input,
    h("button", { type: "submit", class: "primary" }, t("send")),
    h("button", {
      type: "button",
      id: "cancel",
      onclick: () => void post("chat/cancel", { session }).catch(() => {}),
    }, t("cancel")),
  );
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  });
  // The answer being written: its raw text, drawn again as it grows.
  let current: { el: HTMLElement; body: HTMLElement; text: string; queued: boolean } | undefined;
  const onDesk = (ev: Event) => {
    if (sending > 0) {
      held.push(ev);
      return;
    }
    const { conversation, event } = (ev as CustomEvent<DeskMessage>).detail;
    if (session === "" || conversation !== `web:${session}`) return;
    switch (event.type) {
      case "RUN_STARTED": {
        busy = true;
        runStart = event.timestamp;
        if (waiting > 0) waiting--;
        // The queued line this run answers: now answered, in its place.
        const at = queuedLines.findIndex((q) => q.text === event.metadata?.text);
        const [line] = at >= 0 ? queuedLines.splice(at, 1) : [];
        if (line !== undefined) {
          line.el.querySelector(".who .note")?.remove();
          add(line.el);
        }
        break;
      }
      case "TEXT_MESSAGE_START": {
        const el = bubble("assistant", "");
        current = { el, body: el.querySelector(".body") as HTMLElement, text: "", queued: false };
        add(el);
        break;
      }
      case "TEXT_MESSAGE_CONTENT":
        if (current === undefined) break;
        current.text += event.delta;
        if (!current.queued) {
          current.queued = true;
          const c = current;
          requestAnimationFrame(() => {
            c.queued = false;
            replace(c.body, markdown(c.text));
            transcript.scrollTop = transcript.scrollHeight;
          });
        }
        // The frame above draws and scrolls: reading the transcript's height here, once a
        // word, laid the whole page out again each time (a long answer is hundreds).
        return;
      case "RUN_FINISHED": {
        busy = false;
        const target = current?.el ?? transcript.lastElementChild as HTMLElement | null;
        if (event.outcome?.type === "cancelled") {
          target?.appendChild(h("p", { class: "meta" }, t("cancelled")));
        } else if (current !== undefined && event.result?.reply) {
          // The notices the reply ends with (a stand-in answered, ...).
          current.text = event.result.reply;
          replace(current.body, markdown(current.text));
        }
        const started = runStart;
        // The cost line arrives after the answer: the transcript scrolls to show it too.
        if (target) {
          void meta(session, started).then((line) => {
            if (!line) return;
            target.appendChild(line);
            transcript.scrollTop = transcript.scrollHeight;
          });
        }
        current = undefined;
        break;
      }
      case "RUN_ERROR":
        busy = false;
        add(h("p", { class: "msg", role: "alert" }, event.message));
        current = undefined;
        break;
      case "CUSTOM":
        if (event.name === "input.queued") waiting = event.value.position;
        else if (event.name === "notice") {
          add(h("p", { class: "muted" }, event.value.text));
        } else if (event.name === "command.result") {
          add(h("pre", { class: "msg" }, event.value.lines.join("\n")));
        } else if (event.name === "approval.requested") showApproval(event.value);
        else if (event.name === "approval.decided") {
          approvals.get(event.value.id)?.card.dispatchEvent(
            new CustomEvent("decided", { detail: event.value }),
          );
        }
        break;
    }
    showStatus();
    transcript.scrollTop = transcript.scrollHeight;
  };
  // The approval's own shortcut: Alt+Shift+Y allows the oldest waiting one once,
  // Alt+Shift+N denies it. A held key repeating is not an act.
  const onKey = (e: KeyboardEvent) => {
    if (!e.altKey || !e.shiftKey || e.ctrlKey || e.metaKey) return;
    const decision = e.code === "KeyY" ? "once" : e.code === "KeyN" ? "deny" : undefined;
    const oldest = pending()[0];
    if (decision === undefined || oldest === undefined) return;
    e.preventDefault();
    if (!e.repeat) void oldest.decide(decision).then(showStatus);
  };
  live.addEventListener("desk-event", onDesk);
  document.addEventListener("keydown", onKey);
  // The listeners go with the pane.
  addEventListener("hashchange", () => {
    live.removeEventListener("desk-event", onDesk);
    document.removeEventListener("keydown", onKey);
  }, { once: true });
  return h("div", {}, transcript, status, announce, form, said);
}

function bubble(role: "user" | "assistant", text: string, note = ""): HTMLElement {
  const body = h("div", { class: "body" });
  if (role === "assistant") replace(body, markdown(text));
  else body.appendChild(h("p", { class: "plain" }, text));
  return h(
    "article",
    { class: `msg ${role}` },
    h(
      "div",
      { class: "who" },
      role === "user" ? t("you") : t("assistant"),
      note ? h("span", { class: "note" }, ` · ${note}`) : "",
    ),
    body,
  );
}

async function meta(session: string, since: number): Promise<HTMLElement | undefined> {
  const { usage } = await get<{ usage: Json[] }>(
    `usage?session=${encodeURIComponent(session)}&since=${since}`,
  );
  return usage.length === 0 ? undefined : metaLine(usage);
}

/** An answer's model, tokens and dollars, one part per model. */
function metaLine(usage: Json[]): HTMLElement {
  // A call whose usage never came (cancelled, cut off) was priced from estimated tokens.
  return h(
    "p",
    { class: "meta" },
    usage.map((u) =>
      t("answer_meta", {
        model: u.model_id,
        input: count(u.input_tokens),
        output: count(u.output_tokens),
        usd: u.usd === null ? "?" : usd(u.usd),
      }) + (u.estimated_calls > 0 ? ` (${t("answer_estimated")})` : "")
    ).join(" + "),
  );
}
