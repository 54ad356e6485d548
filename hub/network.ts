/**
 * The network for `agent net`: the light door `@agent/hub/network` over `network/`
 * (identity, contacts, the spine client, the universe) and the sub-agent directory a
 * card lists. `agent net status` through the whole-hub door loaded about 500 modules;
 * through this one it loads the network's own.
 *
 * The door names every export: what `agent net` uses, and the types it names.
 *
 * @module
 */

// The node: identity, state, contacts and the log, opened for one home.
export {
  blockContact,
  type Contact,
  describeMissing,
  IdentityFileError,
  initIdentity,
  loadIdentity,
  type NetLogEntry,
  type NetNode,
  type NetState,
  NetUsageError,
  openNetwork,
  type OpenNetworkOptions,
  openState,
  OwnSpineError,
  type SendOutcome,
  SpineError,
  UNREADABLE_SUFFIX,
} from "./network/mod.ts";

// The universe directory: joining, leaving, the standing a card has there.
export {
  joinUniverse,
  leaveUniverse,
  UniverseClient,
  universeFailure,
  universeFieldsProblem,
  universeSentence,
  universeStanding,
} from "./network/mod.ts";

// The sub-agents a card lists.
export { loadSubAgentDirectory } from "./subs/mod.ts";

// The test clock a hub of a checkout honours (`AGENT_TEST_CLOCK`), so a test steps time.
export { testNow } from "./clock.ts";
