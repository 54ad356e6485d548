/**
 * The tool calls of one step of a turn: each is checked against its tool's schema as
 * it arrives, a tier-2 call waits for the turn's approval hook (asked one call at a
 * time, in the order the model made them: never two prompts at once), and at most
 * {@linkcode MAX_PARALLEL_CALLS} run at a time; a fifth waits for a slot. What each
 * gave back becomes a tool result part as it settles; a call the turn's end overtook
 * gets one that says so, because every provider refuses a call left unanswered.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { RefusalReason, ToolOutput, ToolResultPart } from "../sessions/mod.ts";
import { type ModelTool, type ModelTools, refusalText, type ToolVerdict } from "../tools/mod.ts";

/** Calls of one step running at once at most. */
export const MAX_PARALLEL_CALLS = 4;

/** A tier-2 call as the loop's approval hook sees it. */
export interface LoopToolCall {
  toolName: string;
  input: unknown;
  toolCallId: string;
  signal: AbortSignal;
}

/** Decides whether a tier-2 call runs; a throw ends the turn with that error. */
export type LoopApproval = (call: LoopToolCall) => Promise<ToolVerdict>;

/** How a call ended. */
export type CallOutcome =
  | { kind: "output"; output: unknown }
  | { kind: "error"; error: string }
  | { kind: "refused"; reason: RefusalReason };

/** What the model sent for a call. */
export interface CallRequest {
  toolCallId: string;
  toolName: string;
  /** The input as the model sent it (JSON text). */
  input: string;
}

/** A call of the step, parsed. */
export interface StepCall {
  toolCallId: string;
  toolName: string;
  /** The input as the model meant it (parsed JSON, or the raw text it could not parse). */
  input: unknown;
  /** The input as stored with the call: an object even when it could not be parsed. */
  storedInput: unknown;
}

interface Tracked extends StepCall {
  state: "waiting" | "running" | "settled";
  settled: Promise<Tracked>;
  outcome?: CallOutcome;
  /** Lets the call go on to its approval and its run. */
  begin(): void;
}

/** Options for {@linkcode StepCalls}. */
export interface StepCallsOptions {
  tools: ModelTools | undefined;
  /** Asked before each tier-2 call; without it, every tier-2 call is refused. */
  approve?: LoopApproval | undefined;
  /** The step's signal: aborting it ends waiting and running calls. */
  signal: AbortSignal;
  /** Ends the step: a hook that threw gives its error here. */
  fail(reason: unknown): void;
  /** @default MAX_PARALLEL_CALLS */
  limit?: number | undefined;
}

/** The calls of one step, from their arrival to their results. */
export class StepCalls {
  #o: StepCallsOptions;
  #calls: Tracked[] = [];
  #running = 0;
  #queue: (() => void)[] = [];
  /** The approvals asked so far, in call order: the next waits for this one. */
  #asking: Promise<unknown> = Promise.resolve();
  #stop = new AbortController();
  /** Aborts when no more calls may start: the step ended, or its stream broke. */
  #gate: AbortSignal;

  constructor(options: StepCallsOptions) {
    this.#o = options;
    this.#gate = AbortSignal.any([options.signal, this.#stop.signal]);
  }

  /**
   * Starts no more calls (the step's stream broke): those waiting for an approval or a
   * slot are not run; those running are let finish, and their results are kept.
   */
  stopStarting(): void {
    this.#stop.abort(new Error("the step's stream broke"));
  }

  /** How many calls the step made. */
  get size(): number {
    return this.#calls.length;
  }

  /**
   * Parses a call; it goes on to its approval and its run (behind the calls before it)
   * once {@linkcode StepCalls.start} lets it, so whoever shows the call shows it before
   * its approval is asked.
   */
  async add(request: CallRequest): Promise<StepCall> {
    const parsed = await parseCall(request.toolName, request.input, this.#o.tools);
    let begin = () => {};
    const begun = new Promise<void>((resolve) => begin = resolve);
    const call: Tracked = {
      toolCallId: request.toolCallId,
      toolName: request.toolName,
      input: parsed.input,
      storedInput: "error" in parsed
        ? (typeof parsed.input === "object" && parsed.input !== null ? parsed.input : {})
        : parsed.input,
      state: "waiting",
      settled: Promise.resolve(undefined as never),
      begin,
    };
    const outcome = "error" in parsed
      ? Promise.resolve<CallOutcome>({ kind: "error", error: parsed.error })
      : begun.then(() => this.#run(call, parsed.tool));
    call.settled = outcome.then((o) => {
      call.outcome = o;
      call.state = "settled";
      return call;
    });
    this.#calls.push(call);
    return call;
  }

  /** Lets `call` (one {@linkcode StepCalls.add} returned) go on to its approval and run. */
  start(call: StepCall): void {
    (call as Tracked).begin();
  }

  /**
   * Each call's result as it settles (in the order they settle), with its outcome.
   * Once the step's signal aborts, the calls still open get a result that says they
   * were cut (not run, or no result came) and the results end.
   */
  async *results(): AsyncGenerator<{ call: StepCall; outcome: CallOutcome; part: ToolResultPart }> {
    const open = new Set(this.#calls);
    for (const call of open) call.begin();
    const { signal } = this.#o;
    let onAbort = () => {};
    const aborted = new Promise<"aborted">((resolve) => {
      onAbort = () => resolve("aborted");
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      while (open.size > 0) {
        const next = await Promise.race([aborted, ...[...open].map((c) => c.settled)]);
        if (next === "aborted") break;
        open.delete(next);
        yield { call: next, outcome: next.outcome!, part: resultPart(next, next.outcome!) };
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    for (const call of this.#calls) {
      if (!open.has(call)) continue;
      // Settled meanwhile: its result is kept like any other.
      const outcome: CallOutcome = call.outcome ??
        (call.state === "running"
          ? { kind: "error", error: CUT_RUNNING }
          : { kind: "refused", reason: "cancelled" });
      yield { call, outcome, part: resultPart(call, outcome) };
    }
  }

  async #run(call: Tracked, tool: ModelTool): Promise<CallOutcome> {
    const gate = this.#gate;
    const asks = typeof tool.needsApproval === "function"
      ? tool.needsApproval(call.input, call.toolCallId)
      : tool.needsApproval === true;
    if (asks) {
      const verdict = await this.#approval(call);
      if (!verdict.allow) return { kind: "refused", reason: verdict.reason };
    }
    if (gate.aborted) return { kind: "refused", reason: "cancelled" };
    await this.#slot();
    if (gate.aborted) {
      this.#release();
      return { kind: "refused", reason: "cancelled" };
    }
    call.state = "running";
    try {
      return {
        kind: "output",
        output: await tool.execute(call.input, {
          toolCallId: call.toolCallId,
          abortSignal: this.#o.signal,
        }),
      };
    } catch (error) {
      return { kind: "error", error: errorMessage(error) };
    } finally {
      this.#release();
    }
  }

  /**
   * The hook's verdict on `call`, asked after every earlier call's was given. Once no
   * call may start, the verdict is not waited for: the call is not run.
   */
  #approval(call: Tracked): Promise<ToolVerdict> {
    const { approve } = this.#o;
    const gate = this.#gate;
    const cancelled: ToolVerdict = { allow: false, reason: "cancelled" };
    const asked = this.#asking.then(async (): Promise<ToolVerdict> => {
      if (gate.aborted) return cancelled;
      if (approve === undefined) return { allow: false, reason: "no_one_to_ask" };
      let onAbort = () => {};
      const closed = new Promise<ToolVerdict>((resolve) => {
        onAbort = () => resolve(cancelled);
        gate.addEventListener("abort", onAbort, { once: true });
      });
      try {
        const verdict = approve({
          toolName: call.toolName,
          input: call.input,
          toolCallId: call.toolCallId,
          signal: gate,
        });
        return await Promise.race([verdict, closed]);
      } catch (error) {
        this.#o.fail(error);
        return cancelled;
      } finally {
        gate.removeEventListener("abort", onAbort);
      }
    });
    this.#asking = asked;
    return asked;
  }

  /** Waits for one of the slots (first come, first served). */
  #slot(): Promise<void> {
    const limit = this.#o.limit ?? MAX_PARALLEL_CALLS;
    if (this.#running < limit) {
      this.#running++;
      return Promise.resolve();
    }
    const signal = this.#gate;
    return new Promise((resolve) => {
      const wake = () => {
        signal.removeEventListener("abort", onAbort);
        this.#running++;
        resolve();
      };
      // A call waiting for a slot when the step ends takes none and runs no more.
      const onAbort = () => {
        const i = this.#queue.indexOf(wake);
        if (i >= 0) this.#queue.splice(i, 1);
        this.#running++;
        resolve();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(wake);
    });
  }

  #release(): void {
    this.#running--;
    this.#queue.shift()?.();
  }
}

/** What a call cut while it ran tells the model. */
const CUT_RUNNING =
  "The turn was cancelled while this ran; its result never came, and it may have done part of its work.";

/** The result part of a call with `outcome`, as the model reads it and the session keeps it. */
function resultPart(call: StepCall, outcome: CallOutcome): ToolResultPart {
  const part = {
    type: "tool-result" as const,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
  };
  if (outcome.kind === "refused") {
    return {
      ...part,
      output: { type: "error-text", value: refusalText(call.toolName, outcome.reason) },
      notRun: outcome.reason,
    };
  }
  return { ...part, output: modelOutput(outcome) };
}

/** A tool's outcome as the model reads it: text as text, the rest as JSON. */
function modelOutput(outcome: Exclude<CallOutcome, { kind: "refused" }>): ToolOutput {
  if (outcome.kind === "error") return { type: "error-text", value: outcome.error };
  const { output } = outcome;
  if (typeof output === "string") return { type: "text", value: output };
  const json = output === undefined ? undefined : JSON.stringify(output);
  return { type: "json", value: json === undefined ? null : JSON.parse(json) };
}

/** The model's input for a tool, parsed and checked against the tool's schema. */
async function parseCall(
  name: string,
  text: string,
  tools: ModelTools | undefined,
): Promise<{ tool: ModelTool; input: unknown } | { input: unknown; error: string }> {
  let input: unknown = text;
  try {
    input = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    return { input, error: `The input for ${name} is not JSON: ${errorMessage(error)}` };
  }
  const tool = tools !== undefined && Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (tool === undefined) {
    const names = Object.keys(tools ?? {}).join(", ") || "none";
    return { input, error: `There is no tool named ${name}; the tools are: ${names}.` };
  }
  const checked = await tool.inputSchema.safeParseAsync(input);
  if (checked.success) return { tool, input: checked.data };
  const issues = checked.error.issues.map((i) =>
    `${i.path.length > 0 ? i.path.join(".") : "input"}: ${i.message}`
  );
  return { input, error: `The input for ${name} does not fit: ${issues.join("; ")}` };
}
