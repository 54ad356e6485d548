/**
 * The conversation desk: {@linkcode Desk} opens conversations by key
 * (`chat`, `tui`, `messenger:<chat>`, `web:<session>`, `job:<name>`); a
 * {@linkcode DeskConversation} takes what a person sends (messages and slash commands,
 * queued in order while an answer runs), runs answers, asks approvals through a hook
 * given to each turn (`beforeToolCall`) and emits AG-UI-shaped events ({@linkcode DeskEvent}) that a channel
 * renders. A channel reads a conversation's `snapshot()` and `choices(kind)` and acts
 * only through its intents (`submit`, `cancel`, `decide`, `pick`, `command`); slash
 * commands return effects that only the conversation applies, and the app registers
 * its own commands as plug-ins ({@linkcode CommandSpec}). `pickSession` decides a
 * terminal conversation's session and role before anything opens.
 *
 * @module
 */
export {
  Desk,
  type DeskOptions,
  type DeskWideListener,
  type OpenedSession,
  type OpenOptions,
} from "./desk.ts";
export { type ChoiceKind, DeskConversation, type SubmitOutcome } from "./conversation.ts";
export { historyLines, messageLines } from "./history.ts";
export type * from "./events.ts";
export { isCustom } from "./events.ts";
export { type PersonDecision, summariseArgs } from "./approvals.ts";
export {
  type CommandContext,
  type CommandEffect,
  type CommandOutcome,
  type CommandReturn,
  commandsOf,
  type CommandSpec,
  commandSummary,
  commandTable,
  credentialNames,
} from "./commands.ts";
export { type Choice, type RoleTarget, type SessionChoice, SESSIONS_LISTED } from "./choices.ts";
export { type BudgetFacts, type ConversationSnapshot, type QueuedLine } from "./snapshot.ts";
export { type ConversationKey, type ConversationPerson, type DeskChannel } from "./keys.ts";
export { missingCredentialOf, type PickedSession, type PickOptions, pickSession } from "./pick.ts";
export { t as deskSentence } from "./_messages.ts";
