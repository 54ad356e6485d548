/**
 * The one call chain every model call goes through: budget check, stand-in choice
 * (`degrade_to`, `failover`), provider call with the 429 retry policy, pricing and the
 * ledger row.
 *
 * The chain is a language model itself ({@linkcode ModelRouter.model}): the turn's tool
 * loop ({@linkcode runToolLoop}) calls it once per step, so every provider call is
 * checked, routed and recorded the same way whichever channel made it.
 *
 * @module
 */
import type { AgentConfig, RoleConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import {
  budgetBlockedSentence,
  checkBudget,
  degradeLogLine,
  degradeNotice,
  formatUsd,
} from "../spend/mod.ts";
import type { Ledger } from "../ledger/mod.ts";
import {
  applyTarget,
  type CallOptions,
  CONNECT_TIMEOUT_MS,
  createModel,
  defaultEndpoint,
  type LanguageModelV4,
  localRuntimeBase,
  MissingCredentialError,
  type ModelTarget,
  probeConnect,
  providerBaseUrl,
} from "../models/mod.ts";
import { awaitLocalAnswer } from "./local_watchdog.ts";
import { t } from "./_messages.ts";
import {
  BudgetSpentError,
  CeilingError,
  ModelCallError,
  TurnEndedError,
  UnreachableError,
} from "./errors.ts";
import { watchStream } from "./stream_watch.ts";
import { chooseTarget, knownRole, missingCredentialSentence } from "./targets.ts";
import { isAbort, statusOf, unreachableReason } from "./failures.ts";
import { callError, unreachableChainError, unreachableError } from "./call_errors.ts";
import { type RetryOptions, retryThrottled } from "./retry.ts";
import { CallBill } from "./call_bill.ts";
import { runToolLoop } from "./tool_loop.ts";
import type {
  CallContext,
  FailoverEvent,
  ModelRequest,
  ModelRouterOptions,
  RouteCall,
  RouterEvent,
  TurnTrace,
} from "./call_types.ts";

export type {
  CallContext,
  FailoverEvent,
  ModelRequest,
  ModelRouterOptions,
  RouterEvent,
  TurnTrace,
};

interface RoleEntry {
  name: string;
  role: RoleConfig;
  target: ModelTarget;
  /** The variable still missing after the fallback decision. */
  missing: string | undefined;
  model: LanguageModelV4 | undefined;
}

/** Routes role calls through budgets, stand-ins, providers and the ledger. */
export class ModelRouter {
  #config: AgentConfig;
  #env: Readonly<Record<string, string | undefined>>;
  #ledger: Ledger | undefined;
  #logger: Logger;
  #lang: Lang;
  #now: () => number;
  #fetch: typeof fetch | undefined;
  #retry: RetryOptions;
  #connectTimeoutMs: number;
  #onFailover: ModelRouterOptions["onFailover"];
  #entries = new Map<string, RoleEntry>();

  /** Decides each role's target once: a role without credentials uses its `fallback`. */
  constructor(options: ModelRouterOptions) {
    this.#config = options.config;
    this.#env = options.env;
    this.#ledger = options.ledger;
    this.#logger = options.logger;
    this.#lang = options.lang ?? "en";
    this.#now = options.now ?? Date.now;
    this.#fetch = options.fetch;
    this.#retry = options.retry ?? {};
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.#onFailover = options.onFailover;
    this.reload();
  }

  /**
   * Decides each role's target again from the configuration's roles as they are now
   * (the hub replaces `config.models` when `agent.toml` is reloaded) and the
   * environment (a credential saved since): the next call of every role uses them;
   * calls under way finish on the model they started with.
   */
  reload(): void {
    const entries = new Map<string, RoleEntry>();
    for (const [name, role] of Object.entries(this.#config.models.roles)) {
      const { target, missing } = chooseTarget(name, role, {
        env: this.#env,
        logger: this.#logger,
      });
      entries.set(name, { name, role, target, missing, model: undefined });
    }
    this.#entries = entries;
  }

  /** The configuration the router was built from. */
  get config(): AgentConfig {
    return this.#config;
  }

  /** The role names, in configuration order. */
  roles(): string[] {
    return [...this.#entries.keys()];
  }

  /** What answers for `roleName` (its fallback when its own credentials are missing). */
  target(roleName: string): ModelTarget {
    return this.#entry(roleName).target;
  }

  /** The variable `roleName` still needs (after the fallback decision), or `undefined`. */
  missingCredential(roleName: string): string | undefined {
    return this.#entry(roleName).missing;
  }

  /** The sentence for a missing credential of `roleName`, or `undefined` when complete. */
  missingCredentialSentence(roleName: string): string | undefined {
    return missingCredentialSentence(this.#lang, roleName, this.#entry(roleName));
  }

  /**
   * A language model that answers as `roleName` through the whole chain. `trace`
   * collects the notices and the role that answered.
   */
  model(roleName: string, context: CallContext, trace?: TurnTrace): LanguageModelV4 & {
    trace: TurnTrace;
  } {
    this.#entry(roleName);
    const state: TurnTrace = trace ?? { usedRole: undefined, notices: [] };
    // Both calls take the same chain; only the kind of answer differs.
    const call = (kind: "stream" | "generate") => (options: CallOptions) =>
      this.#route(roleName, { options, context, trace: state, path: [], kind });
    return {
      specificationVersion: "v4",
      provider: "agent",
      modelId: roleName,
      supportedUrls: {},
      trace: state,
      doStream: call("stream") as (options: CallOptions) => Promise<StreamResult>,
      doGenerate: call("generate") as (options: CallOptions) => Promise<GenerateResult>,
    };
  }

  /**
   * Streams a turn: text as it arrives, tool calls and results, then `done` with the
   * whole text, the notices and the new messages. Throws {@linkcode TurnEndedError}.
   */
  async *stream(
    roleName: string,
    request: ModelRequest,
    context: CallContext,
  ): AsyncGenerator<RouterEvent> {
    const model = this.model(roleName, context);
    const { signal } = context;
    let text = "";
    try {
      for await (
        const event of runToolLoop({
          model,
          system: request.system,
          messages: request.messages,
          tools: request.tools,
          maxSteps: request.maxSteps ?? 8,
          signal,
          approve: request.approve,
        })
      ) {
        if (event.type !== "done") {
          if (event.type === "text") text += event.text;
          yield event;
          continue;
        }
        yield {
          type: "done",
          text,
          usedRole: model.trace.usedRole,
          notices: model.trace.notices,
          messages: event.messages,
          ...(event.cut === undefined ? {} : { cut: event.cut }),
        };
      }
    } catch (error) {
      // The caller's own reason for stopping (a cancel, an interrupted approval) is theirs.
      if (signal?.aborted && error === signal.reason) throw error;
      throw this.#asTurnEnded(error, roleName);
    }
  }

  /** Runs a turn to the end; `notice` joins the notices the reply ends with. */
  async generate(
    roleName: string,
    request: ModelRequest,
    context: CallContext,
  ): Promise<{ text: string; usedRole: string; notice?: string }> {
    for await (const event of this.stream(roleName, request, context)) {
      if (event.type !== "done") continue;
      const out: { text: string; usedRole: string; notice?: string } = {
        text: event.text,
        usedRole: event.usedRole ?? roleName,
      };
      if (event.notices.length > 0) out.notice = event.notices.join(" ");
      return out;
    }
    throw new ModelCallError(t(this.#lang, "model_failed", {
      role: roleName,
      provider: this.target(roleName).provider,
      model: this.target(roleName).model_id,
      detail: "no answer",
    }));
  }

  #entry(roleName: string): RoleEntry {
    return knownRole(this.#entries.get(roleName), this.#lang, roleName);
  }

  async #route(asked: string, call: RouteCall): Promise<StreamResult | GenerateResult> {
    const { options, context, trace, kind } = call;
    const bill = new CallBill({
      ledger: this.#ledger,
      config: this.#config,
      logger: this.#logger,
      now: this.#now,
      context,
      prompt: { prompt: options.prompt, tools: options.tools },
      tools: options.tools,
    });
    const roleName = this.#budgetChoice(asked, trace, bill);
    const entry = this.#entry(roleName);
    const visited = [...call.path, asked, roleName];
    const next = { ...call, path: visited };
    const standIn = entry.role.failover;
    const canFailover = standIn !== undefined && this.#entries.has(standIn) &&
      !visited.includes(standIn);
    let model: LanguageModelV4;
    let target: ModelTarget;
    try {
      if (entry.missing !== undefined) {
        throw new ModelCallError(this.missingCredentialSentence(roleName)!);
      }
      target = entry.target;
      if (canFailover || target.provider === "local-runtime") {
        const endpoint = providerBaseUrl(target, this.#env) ?? defaultEndpoint(target, this.#env);
        if (endpoint !== undefined) {
          const probe = await probeConnect(endpoint, {
            timeoutMs: this.#connectTimeoutMs,
            signal: context.signal,
          });
          if (!probe.ok) {
            bill.release();
            if (canFailover) {
              return this.#failover(roleName, {
                standIn: standIn!,
                reason: probe.reason,
                call: next,
              });
            }
            throw this.#unreachable(roleName, probe.reason);
          }
        }
      }
      model = await this.#modelOf(entry);
    } catch (error) {
      bill.release();
      throw error;
    }
    // A job's run: the call's most possible cost must fit under the run's ceiling.
    if (context.ceiling !== undefined && !bill.holdCeiling(entry)) {
      throw new CeilingError(
        t(this.#lang, "ceiling_refused", { usd: formatUsd(context.ceiling.usd, this.#lang) }),
      );
    }
    // A hard cap (or a ceiling) reserved max_tokens × output price: the call may not go past it.
    const maxTokens = CallBill.maxTokens(entry, context.ceiling !== undefined);
    const callOptions = applyTarget(
      maxTokens === target.max_tokens ? target : { ...target, max_tokens: maxTokens },
      options,
    );
    // A call that was sent is billed whatever ends it: one row, from the provider's usage
    // when it came, else estimated (cancelled, timed out, connection lost, stopping).
    bill.sending(entry);
    const cancelled = () => bill.settleEstimated(entry);
    context.signal?.addEventListener("abort", cancelled, { once: true });
    const done = () => context.signal?.removeEventListener("abort", cancelled);
    let result: StreamResult | GenerateResult;
    try {
      // Raw chunks carry the usage a vendor reports before it fails mid-way (see
      // watchStream); they stop there and never reach the tool loop.
      const run = (signal?: AbortSignal): PromiseLike<StreamResult | GenerateResult> => {
        const options = signal ? { ...callOptions, abortSignal: signal } : callOptions;
        return kind === "stream"
          ? model.doStream({ ...options, includeRawChunks: true })
          : model.doGenerate(options);
      };
      result = await retryThrottled<StreamResult | GenerateResult>(
        () =>
          target.provider === "local-runtime"
            ? awaitLocalAnswer<StreamResult | GenerateResult>(run, {
              base: localRuntimeBase(target.params, this.#env),
              waitMs: this.#connectTimeoutMs,
              probeMs: this.#connectTimeoutMs,
              signal: callOptions.abortSignal ?? context.signal,
              fetch: this.#fetch,
            })
            : run(),
        {
          ...this.#retry,
          // The local server gets no retries (the spec's limit); hosted 429s are retried.
          ...(target.provider === "local-runtime" ? { attempts: 1 } : {}),
          signal: context.signal,
        },
      );
    } catch (error) {
      if (isAbort(error) || context.signal?.aborted) {
        done();
        bill.settleEstimated(entry);
        throw error;
      }
      done();
      const reason = unreachableReason(error);
      // Refused before it was read (an HTTP error, no connection): nothing was billed.
      if (notBilled(error, reason)) bill.release();
      else bill.settleEstimated(entry);
      if (reason !== undefined && canFailover) {
        return this.#failover(roleName, { standIn: standIn!, reason, call: next });
      }
      throw this.#translate(error, roleName, reason);
    }
    trace.usedRole = roleName;
    if (!("stream" in result)) {
      const generated = result;
      done();
      bill.settle(entry, generated.usage);
      return generated;
    }
    return {
      ...result,
      stream: watchStream(
        result.stream,
        (usage, complete) => {
          done();
          if (complete) bill.settle(entry, usage);
          else bill.settleEstimated(entry, usage);
        },
        (chars) => bill.streamed(chars),
        () => {
          done();
          bill.settleEstimated(entry);
        },
      ),
    };
  }

  /**
   * Follows `degrade_to` while budgets are spent (or a hard cap's reservation does not
   * fit); throws when no role may answer.
   */
  #budgetChoice(roleName: string, trace: TurnTrace, bill: CallBill): string {
    if (this.#ledger === undefined) return roleName;
    const decision = checkBudget(
      this.#ledger,
      this.#config,
      roleName,
      this.#now(),
      (name, status) => bill.reserve(this.#entry(name), status),
    );
    if (!decision.ok) throw new BudgetSpentError(budgetBlockedSentence(this.#lang, decision));
    const first = decision.degraded[0];
    if (first === undefined) return roleName;
    decision.degraded.forEach((status, i) => {
      const next = decision.degraded[i + 1]?.role ?? decision.role;
      this.#logger.warn(degradeLogLine(status, next));
    });
    addNotice(trace, degradeNotice(this.#lang, first, decision.role));
    return decision.role;
  }

  #failover(
    roleName: string,
    step: { standIn: string; reason: string; call: RouteCall },
  ): Promise<StreamResult | GenerateResult> {
    const { standIn, reason, call } = step;
    const target = this.#entry(roleName).target;
    this.#logger.warn(
      `role ${roleName}: ${target.provider} ${target.model_id} is not reachable (${reason}); ${standIn} answers instead`,
    );
    addNotice(call.trace, t(this.#lang, "failover_notice", { role: roleName, stand_in: standIn }));
    try {
      this.#onFailover?.({ role: roleName, standIn, reason });
    } catch { /* a listener's failure never changes the answer */ }
    return this.#route(standIn, call).catch((error) => {
      // The sentence names the role the owner asked for, not only the last stand-in.
      if (error instanceof UnreachableError) {
        throw unreachableChainError(this.#lang, roleName, error);
      }
      throw error;
    });
  }

  async #modelOf(entry: RoleEntry): Promise<LanguageModelV4> {
    if (entry.model === undefined) {
      try {
        entry.model = await createModel(entry.target, { env: this.#env, fetch: this.#fetch });
      } catch (error) {
        if (error instanceof MissingCredentialError) {
          throw new ModelCallError(t(this.#lang, "missing_credential", {
            role: entry.name,
            provider: entry.target.provider,
            variable: error.variable,
          }));
        }
        throw error;
      }
    }
    return entry.model;
  }

  #unreachable(roleName: string, reason: string): ModelCallError {
    return unreachableError(this.#lang, roleName, this.#entry(roleName).target, reason);
  }

  #translate(error: unknown, roleName: string, reason: string | undefined): TurnEndedError {
    return callError(this.#lang, error, roleName, this.#entry(roleName).target, {
      reason,
      attempts: this.#retry.attempts ?? 4,
    });
  }

  #asTurnEnded(error: unknown, roleName: string): unknown {
    if (error instanceof TurnEndedError || isAbort(error)) return error;
    // Errors from before the stream were translated in #route; what arrives here broke
    // an answer that had started, which is never "unreachable".
    return this.#translate(error, roleName, undefined);
  }
}

/**
 * Whether a failed request was refused before the provider read it (an HTTP error
 * status, or no connection at all): such a call is not billed and leaves no row.
 */
function notBilled(error: unknown, reason: string | undefined): boolean {
  if (statusOf(error) !== undefined) return true;
  return reason === "connection refused" || reason === "host not found" ||
    reason === "connection failed";
}

/** Adds a notice once: every step of a tool loop goes through the chain again. */
function addNotice(trace: TurnTrace, notice: string): void {
  if (!trace.notices.includes(notice)) trace.notices.push(notice);
}

type StreamResult = Awaited<ReturnType<LanguageModelV4["doStream"]>>;
type GenerateResult = Awaited<ReturnType<LanguageModelV4["doGenerate"]>>;
type StreamUsage = GenerateResult["usage"];
