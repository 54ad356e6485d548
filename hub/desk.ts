/**
 * A conversation on a terminal screen: the light door `@agent/hub/desk` for `agent tui`.
 * Through the whole-hub door the TUI loaded every module of the hub (the dashboard, the
 * network service, the job scheduler, the channels, the daemon); through this one it
 * loads the desk and what its conversation is opened with, and the few names it uses to
 * watch a running hub.
 *
 * The door names every export: what the TUI uses, and the types it names.
 *
 * @module
 */

// What a conversation opens with, checked before anything opens (the session, the
// role, its key), and the desk that opens it with the app's slash commands.
export {
  type Choice,
  type ConversationSnapshot,
  Desk,
  DeskConversation,
  type DeskEvent,
  type DeskOptions,
  deskSentence,
  type HistoryLine,
  missingCredentialOf,
  type PickedSession,
  type PickOptions,
  pickSession,
} from "./desk/mod.ts";
export type { ApprovalRequest } from "./desk/events.ts";
export { appCommands, settingChoices } from "./app/desk_commands.ts";

// What the desk is given: the ledger (and the sentence when it cannot open), the
// memory store, the registry's enabled tools.
export { Ledger } from "./ledger/ledger.ts";
export { LedgerError } from "./ledger/types.ts";
export { ledgerErrorSentence } from "./spend/mod.ts";
export { openMemory } from "./app/memory_store.ts";
export { loadComponents } from "./app/components.ts";
export { enabledTools } from "./tools/enabled.ts";

// A running hub, watched: its control API, its owner events and how they are said,
// and the network's state file (the contact requests waiting).
export { fetchControl } from "./control/client.ts";
export { followHubEvents } from "./control/follow.ts";
export { eventText } from "./events/said.ts";
export { ownerEventLine } from "./events/sentences.ts";
export type { OwnerEvent } from "./events/types.ts";
export { EVENT_BOOKS } from "./event_books.ts";
export { openState } from "./network/setup.ts";
export type { AgentConfig } from "./config/types.ts";
