/**
 * The conversation desk: {@linkcode Desk} opens conversations by key
 * (`chat`, `tui`, `messenger:<chat>`, `web:<session>`); a {@linkcode DeskConversation}
 * takes what a person sends (messages and slash commands, queued in order while an
 * answer runs), runs answers, asks approvals and emits AG-UI-shaped events
 * ({@linkcode DeskEvent}) that a channel renders. `pickSession` decides a terminal
 * conversation's session and role before anything opens.
 *
 * @module
 */
export { Desk, type DeskOptions, type DeskWideListener, type OpenOptions } from "./desk.ts";
export { DeskConversation, historyLines, type SubmitOutcome } from "./conversation.ts";
export type * from "./events.ts";
export { isCustom } from "./events.ts";
export { type PersonDecision, summariseArgs } from "./approvals.ts";
export {
  COMMANDS,
  commandsOf,
  type CommandSpec,
  commandSummary,
  type ConversationState,
  credentialNames,
  describeRole,
} from "./commands.ts";
export { type ConversationKey, type DeskChannel } from "./keys.ts";
export { missingCredentialOf, type PickedSession, type PickOptions, pickSession } from "./pick.ts";
export { t as deskSentence } from "./_messages.ts";
