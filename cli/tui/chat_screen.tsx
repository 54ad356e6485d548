/**
 * The chat screen: the transcript (scrollable), the answer streaming in place, the
 * input (multi-line, with history), the approval prompt, the pickers and the status
 * bar. Every action is the controller's; this file only draws and maps keys.
 *
 * @module
 */
import { Box, Text, usePaste } from "ink";
import { memo, useEffect, useMemo, useRef, useSyncExternalStore } from "./react.ts";
import { displayWidth, type Lang, markdownLines } from "@agent/hub/base";
import { fitSegments, type Segment, wrap } from "./layout.ts";
import { APPROVAL_CHOICES, type StatusFacts, type TuiController } from "./controller.ts";
import { useKeys, useLive } from "./keys.ts";
import { type KeyedRow, TranscriptLayout, type TranscriptRow } from "./transcript.ts";
import { formatUsdAll } from "@agent/hub/money";
import { t } from "./_messages.ts";

/** The network service's states (`hub/network/service.ts`), said in the owner's language. */
const NET_STATES = ["idle", "polling", "failed"];

/** Props of {@linkcode ChatScreen}. */
export interface ChatScreenProps {
  controller: TuiController;
  lang: Lang;
  columns: number;
  rows: number;
  /** Text typed before the screen opened. */
  initialInput?: string;
}

/** The status bar's text for `facts`, fitted to `width`. */
export function statusBar(facts: StatusFacts, lang: Lang, width: number, busy: boolean): string {
  // The digits the comparison needs, with the reader's separators (`$0,014/$15,00` in Turkish).
  const [spent, cap] = formatUsdAll([facts.spentUsd, facts.capUsd ?? 0], lang);
  const spend = facts.capUsd === null
    ? `$${spent} · ${t(lang, "seg_no_budget")}`
    : `$${spent}/$${cap} ${periodWord(lang, facts.period)}${
      facts.exhausted ? ` ${t(lang, "seg_spent")}${facts.standIn ? ` → ${facts.standIn}` : ""}` : ""
    }`;
  const segments: Segment[] = [
    { text: facts.role, priority: 10 },
    { text: spend, priority: 9 },
    { text: `${facts.provider} ${facts.model}`, priority: 6 },
  ];
  if (busy) segments.push({ text: t(lang, "busy"), priority: 7 });
  if (facts.hub !== undefined) {
    segments.push({
      text: facts.hub.running ? t(lang, "seg_hub") : t(lang, "seg_hub_none"),
      priority: 4,
    });
    if (facts.hub.running && facts.hub.net) {
      const net = facts.hub.net;
      const state = NET_STATES.includes(net) ? t(lang, `net_${net}` as "net_idle") : net;
      segments.push({ text: t(lang, "seg_net", { state }), priority: 3 });
    }
  }
  if (facts.requests > 0) {
    segments.push({ text: t(lang, "seg_requests", { n: facts.requests }), priority: 5 });
  }
  segments.push({ text: facts.session, priority: 1 });
  return fitSegments(segments, width);
}

/** A budget period in the UI language (`day` is `gün` in Turkish). */
function periodWord(lang: Lang, period: string): string {
  return period === "day" || period === "week" || period === "month"
    ? t(lang, `period_${period}`)
    : period;
}

/** The chat screen. */
export function ChatScreen(
  { controller, lang, columns, rows, initialInput = "" }: ChatScreenProps,
) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  // Keys of one read are handled one by one, each against what the one before it left
  // (keys.ts): the handler reads the controller's state and these live values, never
  // the values of the last render.
  const [input, setInput, inputNow] = useLive(initialInput);
  const [, setHistory, historyNow] = useLive<string[]>([]);
  const [, setRecall, recallNow] = useLive<number | undefined>(undefined);
  const [scroll, setScroll] = useLive(0);
  const [ctrlC, setCtrlC, ctrlCNow] = useLive(false);
  const layout = useRef(new TranscriptLayout());

  // New text brings the view back to the bottom.
  useEffect(() => setScroll(0), [state.entries.length]);

  const send = (text: string) => {
    if (text.trim() === "") return;
    setHistory((h) => [...h, text]);
    setRecall(undefined);
    setInput("");
    void controller.submit(text);
  };

  // A paste comes whole (bracketed paste): its line breaks are new lines, not sends.
  usePaste((text) => setInput((v) => v + text.replace(/\r\n?/g, "\n")));

  useKeys((char, key) => {
    const now = controller.getState();
    if (key.ctrl && char === "c") {
      if (controller.interrupt()) return;
      if (ctrlCNow()) controller.quit(0);
      else {
        setCtrlC(true);
        setTimeout(() => setCtrlC(false), 2_000);
      }
      return;
    }
    if (key.ctrl && char === "d") return controller.quit(0);
    if (key.ctrl && char === "u") return setInput("");
    // An approval takes only keys that cannot be text, and none in its first 500 ms;
    // everything else goes on into the input (Enter queues the line).
    if (now.approval !== undefined) {
      if (key.ctrl && char === "y") return void controller.answer("once");
      if (key.ctrl && char === "n") return void controller.answer("deny");
      if (now.approval.focus !== undefined) {
        if (key.tab || key.escape) return void controller.focusApproval(false);
        if (key.leftArrow || key.upArrow) return controller.moveApproval(-1);
        if (key.rightArrow || key.downArrow) return controller.moveApproval(1);
        if (key.return) return void controller.chooseApproval();
        // Text typed at the buttons goes to the input, which takes the focus back.
        controller.focusApproval(false);
      } else if (key.tab) return void controller.focusApproval(true);
    }
    if (now.picker !== undefined) {
      if (key.escape) controller.closeOverlay();
      else if (key.upArrow) controller.move(-1);
      else if (key.downArrow) controller.move(1);
      else if (key.return) void controller.choose();
      return;
    }
    if (key.pageUp) return setScroll((s) => s + Math.max(1, rows - 6));
    if (key.pageDown) return setScroll((s) => Math.max(0, s - Math.max(1, rows - 6)));
    const typed = inputNow();
    if (key.return && (key.meta || typed.endsWith("\\"))) {
      setInput((v) => `${v.replace(/\\$/, "")}\n`);
      return;
    }
    if (key.return) return send(typed);
    const history = historyNow();
    const recall = recallNow();
    if (key.upArrow && !typed.includes("\n")) {
      if (history.length === 0) return;
      const at = recall === undefined ? history.length - 1 : Math.max(0, recall - 1);
      setRecall(at);
      setInput(history[at]!);
      return;
    }
    if (key.downArrow && !typed.includes("\n")) {
      if (recall === undefined) return;
      const at = recall + 1;
      if (at >= history.length) {
        setRecall(undefined);
        setInput("");
      } else {
        setRecall(at);
        setInput(history[at]!);
      }
      return;
    }
    if (key.backspace || key.delete) {
      setInput((v) => Array.from(v).slice(0, -1).join(""));
      return;
    }
    if (key.escape || key.tab || key.leftArrow || key.rightArrow) return;
    if (char && !key.ctrl && !key.meta) setInput((v) => v + char);
  });

  const width = Math.max(10, columns);
  const inputLines = wrap(`› ${input}`, width);
  const overlay = overlayLines(state, lang, width);
  const hint = ctrlC
    ? t(lang, "ctrl_c_again")
    : state.approval === undefined
    ? t(lang, "chat_hint")
    : t(lang, state.approval.focus === undefined ? "approve_hint" : "approve_hint_focused");
  // One row stays free: Ink redraws a frame as tall as the terminal by clearing it, which
  // flickers and loses the top line.
  const height = Math.max(4, rows - 1);
  const room = Math.max(1, height - inputLines.length - overlay.length - 2);
  // Only what can be seen is laid out and drawn: the transcript's rows are kept, each
  // laid out once (layout.ts), so a long answer costs a frame no more than a short one.
  // A key typed changes the input only: the transcript's rows are kept from the last frame.
  const tail = useMemo(
    () =>
      state.entries.length === 0 && state.streaming === undefined
        ? welcomeRows(state.status, lang, width)
        : layout.current.tail(
          state,
          width,
          room + scroll,
          (text) => `${t(lang, "queued")} ${text}`,
        ),
    [state.entries, state.streaming, state.queued, state.status, lang, width, room, scroll],
  );
  const offset = Math.max(0, Math.min(scroll, tail.total - room));
  const shown = tail.rows.slice(
    Math.max(0, tail.rows.length - room - offset),
    tail.rows.length - offset,
  );

  return (
    // Never wider than the terminal, even in the frame Ink draws on a resize before the
    // new width reaches `columns` (a frame wider than the screen wraps and leaves rows
    // behind). Yoga takes a percentage; Ink's types list only numbers.
    <Box
      flexDirection="column"
      width={width}
      maxWidth={"100%" as unknown as number}
      height={height}
      overflow="hidden"
    >
      <Box flexDirection="column" height={room} justifyContent="flex-end">
        {shown.map((row) => <Row key={row.key} row={row} />)}
      </Box>
      {overlay.map((line, i) => <Text key={`o${i}`} color={line.color}>{line.text || " "}</Text>)}
      {inputLines.map((line, i) => <Text key={`i${i}`} color="cyan">{line || " "}</Text>)}
      <Text inverse>{statusBar(state.status, lang, width, state.busy).padEnd(width)}</Text>
      <Text color={state.approval === undefined ? "gray" : "yellow"}>
        {fitSegments(hintSegments(hint, state.approval !== undefined), width)}
      </Text>
    </Box>
  );
}

/**
 * The hint line's segments: one segment (cut when too long), or, while an approval
 * waits, each of its ` · ` parts, the later ones dropped first on a narrow screen so
 * the keys that decide it stay.
 */
function hintSegments(hint: string, approval: boolean): Segment[] {
  if (!approval) return [{ text: hint, priority: 1 }];
  const parts = hint.split(" · ");
  return parts.map((text, i) => ({ text, priority: parts.length - i }));
}

/** What an empty row draws (Ink drops an empty `<Text>`, and the row with it). */
const SPACE = " ";

/**
 * One transcript row: its spans in their styles (code in yellow, URLs dimmed). Drawn
 * again only when its text changed: a streamed answer redraws its last rows.
 */
const Row = memo(
  function Row({ row }: { row: TranscriptRow }) {
    if (row.spans.length === 0) return <Text>{SPACE}</Text>;
    return (
      <Text {...(row.color ? { color: row.color } : {})}>
        {row.spans.map((span, i) => (
          <Text
            key={i}
            bold={span.bold === true}
            italic={span.italic === true}
            dimColor={span.dim === true}
            {...(span.code ? { color: "yellow" } : {})}
          >
            {span.text}
          </Text>
        ))}
      </Text>
    );
  },
  (a, b) => a.row.spans === b.row.spans && a.row.color === b.row.color,
);

/** The first screen, before anything was said: the model, the budget left, what to type. */
function welcomeRows(facts: StatusFacts, lang: Lang, width: number) {
  const [left, cap] = formatUsdAll(
    [Math.max(0, (facts.capUsd ?? 0) - facts.spentUsd), facts.capUsd ?? 0],
    lang,
  );
  const budget = facts.capUsd === null ? t(lang, "welcome_no_budget") : t(lang, "welcome_budget", {
    left: `$${left}`,
    cap: `$${cap}`,
    period: periodWord(lang, facts.period),
  });
  const text = [
    t(lang, "welcome_title"),
    "",
    t(lang, "welcome_model", { role: facts.role, provider: facts.provider, model: facts.model }),
    budget,
    "",
    t(lang, "welcome_help"),
  ].join("\n");
  const rows: KeyedRow[] = markdownLines(text, width).map((spans, i) => ({
    spans,
    color: undefined,
    key: `w${i}`,
  }));
  return { rows, total: rows.length };
}

function overlayLines(
  state: ReturnType<TuiController["getState"]>,
  lang: Lang,
  width: number,
): { text: string; color: string }[] {
  if (state.approval !== undefined) {
    const a = state.approval;
    const text = a.from === undefined
      ? t(lang, "approve", { message: a.message, summary: a.summary })
      : t(lang, "approve_from", { conversation: a.from, message: a.message, summary: a.summary });
    const lines = wrap(text, width).map((line) => ({ text: line, color: "yellow" }));
    const buttons = APPROVAL_CHOICES.map((choice, i) => {
      const label = t(lang, `approve_${choice}`);
      return i === a.focus ? `▸ ${label}` : `  ${label}`;
    });
    const color = a.focus === undefined ? "gray" : "green";
    // One row when the buttons fit it; else one button a row, never one cut in two.
    const row = buttons.join("  ");
    const rows = displayWidth(row) <= width ? [row] : buttons.flatMap((b) => wrap(b, width));
    return [...lines, ...rows.map((text) => ({ text, color }))];
  }
  if (state.picker !== undefined) {
    const p = state.picker;
    const title = t(lang, p.kind === "model" ? "picker_model" : "picker_resume");
    const items = p.items.length === 0
      ? [{ text: `  ${t(lang, "picker_none")}`, color: "gray" }]
      : p.items.map((item, i) => ({
        text: `${i === p.index ? "▸ " : "  "}${item.label}`.slice(0, width),
        color: i === p.index ? "green" : "white",
      })).slice(
        Math.max(0, Math.min(p.index - 4, p.items.length - 10)),
        Math.max(0, Math.min(p.index - 4, p.items.length - 10)) + 10,
      );
    return [{ text: title, color: "yellow" }, ...items];
  }
  return [];
}
