/**
 * Scopes in code: which memories a turn may read and where it writes, decided from the
 * conversation it belongs to, never by a prompt. The owner's own conversations read the
 * owner's memories and their conversation's; a conversation with another person reads
 * that person's and the conversation's; a group conversation reads its own only; a
 * network turn gets no memory at all.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import { isScope } from "@agent/net/memory";
import { memoryError } from "./errors.ts";
import type { Scope } from "./types.ts";

export { isScope };

/** `value` as a scope; a `MemoryError` (`unknown_scope`) when it is none. */
export function parseScope(value: string, lang: Lang): Scope {
  const trimmed = value.trim();
  if (!isScope(trimmed)) throw memoryError(lang, "unknown_scope", { scope: value });
  return trimmed;
}

/** Who a turn is with, as the desk knows it. */
export type TurnParty =
  /** The owner, in the owner's own conversation (any channel) or job. */
  | { kind: "owner"; conversation: string }
  /** Another person (`id`: an e-mail address, a messenger user id) in a conversation. */
  | { kind: "person"; id: string; conversation: string }
  /** A group conversation (a group chat): more than the owner in it. */
  | { kind: "group"; conversation: string }
  /** Another agent: no memory at all. */
  | { kind: "network" };

/**
 * What a turn may do with memories: the scopes it reads, the scope its writes go to,
 * and whether its writes come from the owner (only then can a `remember` be in force at
 * once).
 */
export interface MemoryAccess {
  read: readonly Scope[];
  write: Scope;
  owner: boolean;
  /** Where a write that waits for the owner says it came from. */
  party: Exclude<TurnParty["kind"], "network">;
}

/**
 * The access of a turn with `party`; `undefined` for a network turn (no memory).
 *
 * @example
 * ```ts
 * import { accessFor } from "./scope.ts";
 * const a = accessFor({ kind: "person", id: "bob@example.org", conversation: "email:<r@x>" })!;
 * if (a.read.includes("owner") || a.write !== "person:bob@example.org") throw new Error();
 * if (accessFor({ kind: "network" }) !== undefined) throw new Error();
 * ```
 */
export function accessFor(party: TurnParty): MemoryAccess | undefined {
  switch (party.kind) {
    case "network":
      return undefined;
    case "owner":
      return {
        read: ["owner", conversationScope(party.conversation)],
        write: "owner",
        owner: true,
        party: "owner",
      };
    case "person": {
      const person: Scope = `person:${party.id}`;
      return {
        read: [person, conversationScope(party.conversation)],
        write: person,
        owner: false,
        party: "person",
      };
    }
    case "group": {
      const scope = conversationScope(party.conversation);
      return { read: [scope], write: scope, owner: false, party: "group" };
    }
  }
}

/** The scope of one conversation, by its desk key. */
export function conversationScope(key: string): Scope {
  return `conversation:${key}`;
}
