/**
 * What `agent chat` prints of its conversation's events: the answer as it streams (as
 * Markdown at a terminal of known width, raw in a pipe), tool calls and their outcome
 * lines, queued messages, slash commands' output, notices, history after `/resume`,
 * expired approvals, and owner events from the hub (held while an answer runs). In a
 * pipe, a tier-2 call that did not run is one line on standard error, so standard
 * output keeps the answer alone.
 *
 * @module
 */
import type { Lang } from "../../i18n.ts";
import { type DeskEvent, deskSentence as t, type HistoryLine } from "../../desk/mod.ts";
import { eventText, type OwnerEvent, ownerEventLine } from "../../events/mod.ts";
import { EVENT_BOOKS } from "../../event_books.ts";
import { markdownLines } from "../../terminal/markdown.ts";
import { displayWidth } from "../../terminal/width.ts";
import { MarkdownPrinter, paintRow } from "../../terminal/printer.ts";
import { toolOutcomeLine } from "../../terminal/tool_outcome.ts";

/** How many messages of a resumed session chat shows. */
const HISTORY_SHOWN = 10;

/** Options for {@linkcode ChatView}. */
export interface ChatViewOptions {
  lang: Lang;
  /** A person is at a terminal (not a pipe). */
  person: boolean;
  /** Writes to standard output. */
  write(text: string): void;
  /** Writes to standard error. */
  writeError(text: string): void;
  /** The terminal's width: answers are then drawn as Markdown. */
  columns?: (() => number) | undefined;
  /** Paint Markdown styles with ANSI codes. @default false */
  color?: boolean | undefined;
  /** Whether an answer runs now (owner events wait for its end). */
  busy(): boolean;
  /** Shows the prompt again (after an owner event printed over it). */
  prompt(): void;
}

/** Prints a conversation's events as chat shows them. */
export class ChatView {
  #o: ChatViewOptions;
  /** Owner events that came while an answer ran: told once it ends. */
  #held: string[] = [];
  /** Whether the answer has printed text since its start or its last tool line. */
  #wrote = false;
  /** Answers drawn as Markdown (a person at a terminal of known width). */
  #printer: MarkdownPrinter | undefined;
  /** The tool of each call running now, for its outcome line. */
  #tools = new Map<string, string>();
  /** Lines typed during an answer, waiting for their turn, oldest first. */
  #queued: string[] = [];

  /** Makes the view. */
  constructor(options: ChatViewOptions) {
    this.#o = options;
    const columns = options.columns;
    if (options.person && columns !== undefined) {
      this.#printer = new MarkdownPrinter({
        columns,
        color: options.color ?? false,
        write: (text) => this.write(text),
      });
    }
  }

  /** The UI language. */
  get lang(): Lang {
    return this.#o.lang;
  }

  /**
   * Ends the answer's text before a line of chat's own: the printer prints its open
   * row (which ends the line); raw text gets a line break when it wrote something.
   */
  gap(): string {
    if (this.#printer !== undefined) {
      this.#printer.end();
      this.#wrote = false;
      return "";
    }
    const gap = this.#wrote ? "\n" : "";
    this.#wrote = false;
    return gap;
  }

  /**
   * An owner event from the hub: a line at the prompt, or after the answer when one
   * runs. Budget warnings are left out: chat tells its own before an answer.
   */
  ownerEvent(event: OwnerEvent): void {
    if (event.type === "budget.warning" || event.type === "budget.spent") return;
    const text = event.type === "job.result"
      ? this.#jobResult(eventText(this.#o.lang, event, EVENT_BOOKS))
      : ownerEventLine(this.#o.lang, event, EVENT_BOOKS);
    if (this.#o.busy()) {
      this.#held.push(text);
      return;
    }
    // Over the prompt's line, which then comes back with what was typed on it.
    this.write(`\r\x1b[2K${text}\n`);
    this.#o.prompt();
  }

  /**
   * A job's answer: its first line (the job's name and cost) as it is, the answer
   * under it drawn as answers are (Markdown at a terminal of known width).
   */
  #jobResult(text: string): string {
    const columns = this.#o.columns;
    if (!this.#o.person || columns === undefined) return text;
    const [head = "", ...answer] = text.split("\n");
    const rows = markdownLines(answer.join("\n").trim(), Math.max(20, columns() - 1));
    return [head, ...rows.map((row) => paintRow(row, this.#o.color ?? false))].join("\n");
  }

  /** Writes `text` as it is. */
  write(text: string): void {
    this.#o.write(text);
  }

  /** Writes `text` and a line break. */
  line(text: string): void {
    this.#o.write(`${text}\n`);
  }

  /** Renders one event. */
  render(event: DeskEvent): void {
    const { lang, person } = this.#o;
    switch (event.type) {
      case "RUN_STARTED":
        this.#wrote = false;
        // A queued line's turn: it shows again here, above its own answer.
        if (this.#queued[0] === event.metadata.text) {
          this.#queued.shift();
          if (person) this.line(`› ${event.metadata.text}`);
        }
        return;
      case "TEXT_MESSAGE_CONTENT": {
        if (this.#printer !== undefined) {
          this.#printer.append(event.delta);
          this.#wrote = this.#printer.started;
          return;
        }
        const text = this.#wrote ? event.delta : event.delta.replace(/^\s+/, "");
        if (text === "") return;
        this.#wrote = true;
        return this.write(text);
      }
      case "TOOL_CALL_START":
        // A person sees which tool runs; a script reading one answer per line does not.
        if (!person) return;
        this.#tools.set(event.toolCallId, event.toolCallName);
        this.write(`${this.gap()}${t(lang, "tool_call", { tool: event.toolCallName })}\n`);
        return;
      case "TOOL_CALL_RESULT": {
        if (!person) return;
        const tool = this.#tools.get(event.toolCallId) ?? "";
        this.#tools.delete(event.toolCallId);
        return this.line(toolOutcomeLine(lang, tool, event.content));
      }
      case "RUN_FINISHED": {
        if (event.outcome.type === "cancelled") {
          this.write(`${this.gap()}${t(lang, "cancelled")}\n`);
        } else {
          const notices = event.result?.notices ?? [];
          const printed = this.#printer !== undefined;
          const end = this.gap();
          if (notices.length > 0) {
            this.write(`${end}${printed ? "\n" : end}${notices.join("\n")}\n`);
          } else if (!printed) this.write("\n");
        }
        this.#tellHeld();
        if (person) this.write("\n");
        return;
      }
      case "RUN_ERROR":
        this.write(`${this.gap()}${event.message}\n`);
        this.#tellHeld();
        if (person) this.write("\n");
        return;
      case "CUSTOM":
        return this.#custom(event);
    }
  }

  #custom(event: Extract<DeskEvent, { type: "CUSTOM" }>): void {
    const { lang, person } = this.#o;
    switch (event.name) {
      case "notice":
        return this.line(event.value.text);
      case "input.queued": {
        if (!person) return;
        const { text, position } = event.value;
        const before = position - 1;
        const note = before === 0 ? t(lang, "queued") : t(lang, "queued_many", { before });
        // The terminal echoed the line where it was typed, above the answer it waits
        // for: it goes, and comes back marked as the person's and as queued; its own
        // answer prints it again when its turn comes.
        this.write(eraseRows(rowsOf(text, this.#o.columns?.() ?? 80)));
        this.#queued.push(text);
        this.line(`› ${text}  ${note}`);
        return;
      }
      case "command.result":
        for (const line of event.value.lines) this.line(line);
        return;
      case "session.changed":
        if (person) this.#history(event.value.history);
        return;
      case "approval.decided":
        if (event.value.decision === "expired") {
          this.line(`\n${t(lang, "approval_expired", { tool: event.value.tool })}`);
        }
        return;
      case "tool.refused":
        // A person reads the tool's outcome line; a pipe's reader gets one line on
        // standard error, so the answer on standard output is not mistaken for a deed.
        if (!person) {
          const reason = t(lang, `refused_${event.value.reason}`);
          this.#o.writeError(`${t(lang, "refused", { tool: event.value.tool, reason })}\n`);
        }
        return;
    }
  }

  #tellHeld(): void {
    for (const text of this.#held.splice(0)) this.line(text);
  }

  /** The last messages of a resumed session, each tool outcome where it came. */
  #history(history: HistoryLine[]): void {
    const lang = this.#o.lang;
    const shown = lastMessages(history, HISTORY_SHOWN);
    if (shown.messages === 0) return;
    this.line(t(lang, "history_title"));
    if (shown.more > 0) this.line(t(lang, "history_more", { count: shown.more }));
    for (const entry of shown.lines) {
      if (entry.role === "tool") this.line(toolOutcomeLine(lang, entry.tool, entry.text));
      else this.line(entry.role === "user" ? `› ${entry.text}` : entry.text);
    }
  }
}

/**
 * The end of `history` that holds its last `count` messages (and the tool outcomes
 * among them), with how many messages it leaves out.
 */
export function lastMessages(
  history: readonly HistoryLine[],
  count: number,
): { lines: HistoryLine[]; messages: number; more: number } {
  let start = history.length;
  let messages = 0;
  for (let i = history.length - 1; i >= 0 && messages < count; i--) {
    if (history[i]!.role === "tool") continue;
    messages++;
    start = i;
  }
  // All of it fits: the outcomes before the first message too.
  if (messages < count) start = 0;
  const total = history.filter((line) => line.role !== "tool").length;
  return { lines: history.slice(start), messages, more: total - messages };
}

/** How many terminal rows `text` took where it was typed, `columns` wide. */
function rowsOf(text: string, columns: number): number {
  const width = Math.max(1, columns);
  return text.split("\n").reduce(
    (rows, line) => rows + Math.max(1, Math.ceil(displayWidth(line) / width)),
    0,
  );
}

/** Moves up `rows` rows (to where a line was typed) and clears from there down. */
function eraseRows(rows: number): string {
  return `\x1b[${rows}A\r\x1b[J`;
}
