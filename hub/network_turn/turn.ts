/**
 * The network turn: how the agent (or one of its public sub-agents) answers a message
 * from an accepted contact. The agent runs on channel `net` with no tools, no approval
 * hook (a tier-2 call would be refused), the public note in place of `user.md` and a
 * private `## Now` block; the limits are checked before the model is called.
 *
 * @module
 */
import type { Agent } from "../agent/mod.ts";
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { Ledger } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { PersonaFiles } from "../persona/mod.ts";
import type { SessionStore } from "../sessions/mod.ts";
import {
  isUserFile,
  SUB_NAME_PATTERN,
  type SubAgent,
  type SubAgentDirectory,
  writeDerivedPersona,
} from "../subs/mod.ts";
import type { ModelRouter } from "../router/mod.ts";
import { buildFrame, historyFor } from "./frame.ts";
import { isNoReply } from "./no_reply.ts";
import { endsHere } from "./settled.ts";
import { replyId } from "./reply_id.ts";
import { sanitiseName } from "./sanitise.ts";
import {
  subRole,
  type TurnAnswerer,
  type TurnInput,
  type TurnOutcome,
} from "../network/turn_types.ts";
import { MESSAGE_TEXT_MAX } from "@agent/net";
import { errorMessage } from "@agent/net/common";

/** The role the main agent answers other agents with. */
export const NET_ROLE = "brain";

/** What {@linkcode runAgentTurn} receives. */
export interface AgentRequest {
  role: string;
  persona: PersonaFiles;
  sessionId: string;
  /** The frame: the user message of the turn. */
  prompt: string;
  /** The ledger's contact: the peer's address, `<address>/<sub>` when a sub-agent answers. */
  peer: string;
  /** Session meta written with the turn: `title`, `peer` and `sub`. */
  meta: Record<string, unknown>;
  /**
   * The envelope being answered: the session holds its exchange once, however often a
   * crash makes the hub handle it again.
   */
  turnKey: string;
}

/** What a network turn needs from the hub. */
export interface TurnDeps {
  config: AgentConfig;
  /** The merged environment (`.env` and process). */
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  /** The sub-agent directory (first working `agent.subs` entry point), if any. */
  subs: SubAgentDirectory | undefined;
  /** Auto-replies already sent to `address` in the last hour (main and sub-agents). */
  autoRepliesLastHour(address: string): number | Promise<number>;
  /**
   * Runs the model. @default a turn of {@linkcode buildAgent} with channel `net`, no
   * tools, no approval hook and the private context
   */
  runAgent?: ((request: AgentRequest) => Promise<string>) | undefined;
  /** The session store. @default a FileSessionStore under `paths.sessionsDir` */
  sessions?: SessionStore | undefined;
  /** The spend ledger; without one budgets are not checked and nothing is recorded. */
  ledger?: Ledger | undefined;
  logger?: Logger | undefined;
  /** A router to share. */
  router?: ModelRouter | undefined;
  fetch?: typeof fetch | undefined;
  now?: (() => number) | undefined;
  lang?: Lang | undefined;
}

/** The state key of a turn's session: `<address>`, or `<address>/<sub>` for a sub-agent. */
export function sessionKey(address: string, ownSub?: string): string {
  return ownSub === undefined ? address : `${address}/${ownSub}`;
}

/** The session title: `agent network · <name>`, or `agent network · <name> · /<sub>`. */
export function sessionTitle(name: string, address: string, ownSub?: string): string {
  const clean = sanitiseName(name, address);
  return ownSub === undefined
    ? `agent network · ${clean}`
    : `agent network · ${clean} · /${ownSub}`;
}

/**
 * The {@linkcode TurnAnswerer} the hub's network service answers with: a
 * {@linkcode networkTurn} over `deps`, counting auto-replies as the service reports.
 */
export function turnAnswerer(deps: Omit<TurnDeps, "autoRepliesLastHour">): TurnAnswerer {
  // One agent per role and persona for the answerer's life, not one per message: its
  // session windows keep what was read of each peer's session, so the next message reads
  // only what was stored since.
  const agents = new Map<string, Agent>();
  const runAgent = deps.runAgent ??
    ((request: AgentRequest) => runAgentTurn(deps, request, agents));
  return (input, context) =>
    networkTurn({ ...deps, runAgent, autoRepliesLastHour: context.autoRepliesLastHour }, input);
}

/**
 * Answers one message from an accepted contact. The sub-agent check comes first (an
 * unknown sub-agent's message is dropped, not logged, not counted); then `auto_reply`,
 * `max_hops` and the hourly limit, none of which calls the model. Errors of the model
 * call (a spent budget, an unreachable provider) are thrown for the caller to log.
 */
export async function networkTurn(deps: TurnDeps, input: TurnInput): Promise<TurnOutcome> {
  const net = deps.config.net;
  const hops = input.envelope.hops;
  const roles = subRole(hops, input.sub);
  let sub: SubAgent | undefined;
  if (roles.own_sub !== undefined) {
    sub = await publicSub(deps, roles.own_sub);
    if (sub === undefined) return { kind: "skip", reason: "no_public_sub", sub: roles.own_sub };
  }
  if (!net.auto_reply) return { kind: "skip", reason: "auto_reply_off" };
  if (hops + 1 > net.max_hops) return { kind: "skip", reason: "max_hops" };
  if (net.answer_replies === "questions" && endsHere(hops, input.text)) {
    return { kind: "skip", reason: "settled" };
  }
  const sent = await deps.autoRepliesLastHour(input.contact.address);
  if (sent >= net.max_auto_replies_per_hour) return { kind: "skip", reason: "rate_limited" };

  const address = input.contact.address;
  const key = sessionKey(address, sub?.name);
  const sessionId = typeof input.sessionId === "string"
    ? input.sessionId
    : await input.sessionId(key);
  const prompt = buildFrame({
    contact: input.contact,
    ownSub: sub?.name,
    peerSub: roles.peer_sub,
    history: historyFor(input.history, { ownSub: sub?.name, excludeId: input.envelope.id }),
    text: input.text,
  });
  const persona: PersonaFiles = sub === undefined
    ? { personaFile: `${deps.paths.personaDir}/persona.md`, publicNoteFile: await mainNote(deps) }
    : {
      personaFile: await writeDerivedPersona(sub, deps.paths),
      publicNoteFile: sub.public_note_file,
    };
  const meta: Record<string, unknown> = {
    title: sessionTitle(input.contact.name, address, sub?.name),
    peer: address,
    ...(sub === undefined ? {} : { sub: sub.name }),
  };
  const run = deps.runAgent ?? ((request: AgentRequest) => runAgentTurn(deps, request));
  const answer = await run({
    role: sub?.role ?? NET_ROLE,
    persona,
    sessionId,
    prompt,
    // The ledger's contact: the peer's address, and the sub-agent of ours that answered.
    peer: sub === undefined ? address : `${address}/${sub.name}`,
    meta,
    turnKey: input.envelope.id,
  });
  const text = Array.from(answer.trim()).slice(0, MESSAGE_TEXT_MAX).join("").trim();
  if (text === "") return { kind: "skip", reason: "empty" };
  if (isNoReply(text)) return { kind: "skip", reason: "no_reply" };
  return {
    kind: "reply",
    text,
    ...(input.sub === undefined ? {} : { sub: input.sub }),
    replyId: await replyId(input.ownAddress, input.envelope.from, input.envelope.id),
    thread: input.envelope.thread,
    reply_to: input.envelope.id,
    hops: hops + 1,
    ...roles,
  };
}

/**
 * The default model run: a {@linkcode buildAgent} agent on channel `net` with no tools,
 * no approval hook and the private context; returns the answer without the
 * owner-facing notices. With `agents`, the agent for the request's role and persona is
 * taken from there (and kept there), so its session windows carry over between turns.
 */
export async function runAgentTurn(
  deps: Omit<TurnDeps, "autoRepliesLastHour">,
  request: AgentRequest,
  agents?: Map<string, Agent>,
): Promise<string> {
  const key = JSON.stringify([request.role, request.persona]);
  let agent = agents?.get(key);
  if (agent === undefined) {
    agent = await netAgent(deps, request);
    agents?.set(key, agent);
  }
  // The title in meta wins over the agent's own (the first message, here the frame).
  const result = await agent.turn(request.sessionId, request.prompt, {
    peer: request.peer,
    meta: request.meta,
    turnKey: request.turnKey,
  });
  return result.text;
}

async function netAgent(
  deps: Omit<TurnDeps, "autoRepliesLastHour">,
  request: AgentRequest,
): Promise<Agent> {
  // Loaded on first use: the hub's network service starts without the model stack.
  const { buildAgent } = await import("../agent/mod.ts");
  return buildAgent({
    config: deps.config,
    env: deps.env,
    paths: deps.paths,
    channel: "net",
    role: request.role,
    tools: [],
    persona: request.persona,
    context: "private",
    sessions: deps.sessions,
    ledger: deps.ledger,
    logger: deps.logger,
    router: deps.router,
    fetch: deps.fetch,
    now: deps.now,
    lang: deps.lang,
  });
}

async function publicSub(deps: TurnDeps, name: string): Promise<SubAgent | undefined> {
  if (!SUB_NAME_PATTERN.test(name) || deps.subs === undefined) return undefined;
  let sub: SubAgent | undefined;
  try {
    sub = await deps.subs.public(name);
  } catch (error) {
    deps.logger?.warn(`sub-agent directory failed on /${name}: ${errorMessage(error)}`);
    return undefined;
  }
  if (sub === undefined || sub === null || sub.name !== name) return undefined;
  if (typeof sub.role !== "string" || !Object.hasOwn(deps.config.models.roles, sub.role)) {
    return undefined;
  }
  if (!await isFile(sub.persona_file)) return undefined;
  // Another directory may not guard user.md: check again, the prompt must never hold it.
  if (await isUserFile(sub.persona_file, deps.paths)) return undefined;
  if (await isUserFile(sub.public_note_file, deps.paths)) return undefined;
  return sub;
}

/** The agent's public note, unless `[net] public_note` names `user.md` (then none). */
async function mainNote(deps: TurnDeps): Promise<string | undefined> {
  const note = `${deps.paths.personaDir}/${deps.config.net.public_note}`;
  if (await isUserFile(note, deps.paths)) {
    deps.logger?.warn("[net] public_note names persona/user.md; network turns share no note");
    return undefined;
  }
  return note;
}

async function isFile(file: unknown): Promise<boolean> {
  if (typeof file !== "string") return false;
  try {
    return (await Deno.stat(file)).isFile;
  } catch {
    return false;
  }
}
