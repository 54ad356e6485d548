/**
 * The network, light: the door `@agent/hub/network` over `network/` for `agent net`
 * (identity, contacts, the log, the outbox, the universe), which must start fast. The
 * whole hub (`@agent/hub`) loads the model SDKs, about half a second of processor time
 * for every `agent net` run (measured: 0.89 s against 0.35 s user+sys for `agent net
 * log`); a subcommand that answers a message (`poll --once`) imports the whole hub
 * when it gets there.
 *
 * The door names every export: what the `agent net` subcommands use, and the types
 * they name.
 *
 * @module
 */
export {
  blockContact,
  type Contact,
  describeMissing,
  IdentityFileError,
  initIdentity,
  joinUniverse,
  leaveUniverse,
  loadIdentity,
  type NetLogEntry,
  NetNode,
  NetState,
  NetUsageError,
  openNetwork,
  type OpenNetworkOptions,
  openState,
  OwnSpineError,
  type SendOutcome,
  SpineError,
  UniverseClient,
  universeFailure,
  universeFieldsProblem,
  universeSentence,
  universeStanding,
  UNREADABLE_SUFFIX,
} from "./network/mod.ts";
// The sub-agents a universe report lists (`agent net universe join`).
export { loadSubAgentDirectory } from "./subs/directory.ts";
// A test's clock for an `agent net` run (from a checkout only).
export { testNow } from "./clock.ts";
