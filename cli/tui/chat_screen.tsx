/**
 * The chat screen: the transcript (scrollable), the answer streaming in place, the
 * input (multi-line, with history), the approval prompt, the pickers and the status
 * bar. Every action is the controller's; this file only draws and maps keys.
 *
 * @module
 */
import { Box, Text, useInput } from "ink";
import { useEffect, useRef, useState, useSyncExternalStore } from "./react.ts";
import type { Lang } from "@agent/hub/base";
import { fitSegments, type Segment, wrap } from "./layout.ts";
import type { Entry, StatusFacts, TuiController } from "./controller.ts";
import { t } from "./_messages.ts";

/** Props of {@linkcode ChatScreen}. */
export interface ChatScreenProps {
  controller: TuiController;
  lang: Lang;
  columns: number;
  rows: number;
  /** Text typed before the screen opened. */
  initialInput?: string;
}

const COLORS: Record<Entry["kind"], string | undefined> = {
  user: "cyan",
  assistant: undefined,
  system: "gray",
  error: "red",
};

/** The status bar's text for `facts`, fitted to `width`. */
export function statusBar(facts: StatusFacts, lang: Lang, width: number, busy: boolean): string {
  const spend = facts.capUsd === null
    ? `$${facts.spentUsd.toFixed(2)} · ${t(lang, "seg_no_budget")}`
    : `$${facts.spentUsd.toFixed(2)}/$${facts.capUsd.toFixed(2)} ${facts.period}${
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
      segments.push({ text: t(lang, "seg_net", { state: facts.hub.net }), priority: 3 });
    }
  }
  if (facts.requests > 0) {
    segments.push({ text: t(lang, "seg_requests", { n: facts.requests }), priority: 5 });
  }
  segments.push({ text: facts.session, priority: 1 });
  return fitSegments(segments, width);
}

/** The chat screen. */
export function ChatScreen(
  { controller, lang, columns, rows, initialInput = "" }: ChatScreenProps,
) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  // The input lives in a ref too: keys that arrive in one chunk are handled before React
  // renders again, and each must see the text the one before it left.
  const typed = useRef(initialInput);
  const [input, setInputState] = useState(initialInput);
  const setInput = (next: string | ((v: string) => string)) => {
    typed.current = typeof next === "function" ? next(typed.current) : next;
    setInputState(typed.current);
  };
  const [history, setHistory] = useState<string[]>([]);
  const [recall, setRecall] = useState<number | undefined>(undefined);
  const [scroll, setScroll] = useState(0);
  const [ctrlC, setCtrlC] = useState(false);

  // New text brings the view back to the bottom.
  useEffect(() => setScroll(0), [state.entries.length]);

  useInput((char, key) => {
    if (key.ctrl && char === "c") {
      if (controller.interrupt()) return;
      if (ctrlC) controller.quit(0);
      else {
        setCtrlC(true);
        setTimeout(() => setCtrlC(false), 2_000);
      }
      return;
    }
    if (key.ctrl && char === "d") return controller.quit(0);
    if (key.ctrl && char === "u") return setInput("");
    if (state.approval !== undefined) {
      if (char === "y" || char === "Y") controller.answer(true);
      if (char === "n" || char === "N" || key.escape) controller.answer(false);
      return;
    }
    if (state.picker !== undefined) {
      if (key.escape) controller.closeOverlay();
      else if (key.upArrow) controller.move(-1);
      else if (key.downArrow) controller.move(1);
      else if (key.return) void controller.choose();
      return;
    }
    if (key.pageUp) return setScroll((s) => s + Math.max(1, rows - 6));
    if (key.pageDown) return setScroll((s) => Math.max(0, s - Math.max(1, rows - 6)));
    if (key.return && (key.meta || typed.current.endsWith("\\"))) {
      setInput((v) => `${v.replace(/\\$/, "")}\n`);
      return;
    }
    const send = (text: string) => {
      if (text.trim() === "") return;
      setHistory((h) => [...h, text]);
      setRecall(undefined);
      setInput("");
      void controller.submit(text);
    };
    if (key.return) return send(typed.current);
    // A chunk with line breaks (typed fast, or pasted): breaks inside are new lines, a
    // break at its end sends.
    if (char.length > 1 && /[\r\n]/.test(char)) {
      const text = typed.current + char.replace(/\r\n?/g, "\n");
      if (text.endsWith("\n")) send(text.replace(/\n+$/, ""));
      else setInput(text);
      return;
    }
    if (key.upArrow && !typed.current.includes("\n")) {
      if (history.length === 0) return;
      const at = recall === undefined ? history.length - 1 : Math.max(0, recall - 1);
      setRecall(at);
      setInput(history[at]!);
      return;
    }
    if (key.downArrow && !typed.current.includes("\n")) {
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
  // The transcript as lines, each with its colour.
  const lines: { text: string; color: string | undefined }[] = [];
  state.entries.forEach((entry, i) => {
    // A blank line between exchanges, none between the lines of one answer to a command.
    if (i > 0 && (entry.kind === "user" || state.entries[i - 1]!.kind !== entry.kind)) {
      lines.push({ text: "", color: undefined });
    }
    const prefix = entry.kind === "user" ? "› " : "";
    for (const line of wrap(prefix + entry.text, width)) {
      lines.push({ text: line, color: COLORS[entry.kind] });
    }
  });
  if (state.streaming !== undefined) lines.push({ text: "", color: undefined });
  if (state.streaming !== undefined) {
    for (const line of wrap(state.streaming || "…", width)) {
      lines.push({ text: line, color: undefined });
    }
  }
  // What was sent meanwhile waits under the answer, in order.
  for (const text of state.queued) {
    for (const line of wrap(`${t(lang, "queued")} ${text}`, width)) {
      lines.push({ text: line, color: "gray" });
    }
  }
  const inputLines = wrap(`› ${input}`, width);
  const overlay = overlayLines(state, lang, width);
  const hint = ctrlC ? t(lang, "ctrl_c_again") : t(lang, "chat_hint");
  // One row stays free: Ink redraws a frame as tall as the terminal by clearing it, which
  // flickers and loses the top line.
  const height = Math.max(4, rows - 1);
  const room = Math.max(1, height - inputLines.length - overlay.length - 2);
  const maxScroll = Math.max(0, lines.length - room);
  const offset = Math.min(scroll, maxScroll);
  const shown = lines.slice(Math.max(0, lines.length - room - offset), lines.length - offset);

  return (
    <Box flexDirection="column" width={width} height={height}>
      <Box flexDirection="column" height={room} justifyContent="flex-end">
        {shown.map((line, i) => (
          <Text key={i} {...(line.color ? { color: line.color } : {})}>{line.text || " "}</Text>
        ))}
      </Box>
      {overlay.map((line, i) => <Text key={`o${i}`} color={line.color}>{line.text || " "}</Text>)}
      {inputLines.map((line, i) => <Text key={`i${i}`} color="cyan">{line || " "}</Text>)}
      <Text inverse>{statusBar(state.status, lang, width, state.busy).padEnd(width)}</Text>
      <Text color="gray">{fitSegments([{ text: hint, priority: 1 }], width)}</Text>
    </Box>
  );
}

function overlayLines(
  state: ReturnType<TuiController["getState"]>,
  lang: Lang,
  width: number,
): { text: string; color: string }[] {
  if (state.approval !== undefined) {
    const a = state.approval;
    const text = t(lang, "approve", { message: a.message, summary: a.summary });
    return wrap(text, width).map((line) => ({ text: line, color: "yellow" }));
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
