/**
 * The agent itself: configuration, roles and providers, prices, the spend ledger,
 * budgets, sessions, persona, tools, sub-agents, the network service and network
 * turns, the agent, the channels, and the hub daemon with its control API.
 *
 * This is the whole hub, and importing it loads every part (the model SDKs among
 * them). A command that must start fast imports a light door instead:
 * `@agent/hub/base` (paths, language, log, `.env`, credentials, version,
 * `UserError`), `@agent/hub/config` (`agent.toml`), `@agent/hub/money` (ledger,
 * budgets, spend) or `@agent/hub/doctor` (the doctor's checks).
 *
 * The door names every export: what the CLI, the tests and the benchmarks use, and what
 * a component author or an embedder needs to name. Everything else in `hub/` is the
 * hub's own business and may change without notice. To offer a new name, add it to
 * its group below (`deno task lint:doors` refuses `export *` in a door).
 *
 * @module
 */

// Configuration and setup: `agent init` and the TUI's first-run screens write a home;
// tests and benchmarks build one from the template. The light parts (`loadConfig`,
// `AgentConfig`) are also on `@agent/hub/config`, `Logger` and `AgentPaths` (where a
// home keeps what) on `@agent/hub/base`; they are here too because every embedder
// passes them to what follows.
export { type AgentPaths, Logger } from "./base.ts";
export { loadConfig } from "./config/mod.ts";
export type { AgentConfig } from "./config/mod.ts";
export { defaultConfig, parseConfig } from "./config/parse.ts";
export { defaultProvider, SETUP_PROVIDERS, setupHome, setupNeedsLanguage } from "./config/setup.ts";
export { CONFIG_TEMPLATE } from "./config/template.ts";
// The keys each table of `agent.toml` takes, from its schema (the docs test reads them).
export { configKeys } from "./config/keys.ts";

// Money: the ledger that chat and the TUI open, and the spend report the TUI shows. The
// rest (budgets, `agent spend`'s reports) is on the light door `@agent/hub/money`.
export { Ledger, LedgerError } from "./ledger/mod.ts";
export { ledgerErrorSentence, spendReport } from "./spend/mod.ts";

// Models and the call chain: the router every model call goes through (budget check,
// stand-in, provider call, pricing, ledger row) and its retry rules, for the tests that
// drive it against loopback vendors and for an embedder that makes its own calls.
export { ModelRouter, retryDelay, retryThrottled, unreachableReason } from "./router/mod.ts";

// The agent and the desk: `buildAgent` for one conversation's turns; the desk that
// holds a channel's conversations (queue, approvals, slash commands, `/resume`) and the
// events a channel renders (the TUI's controller is such a channel). The option and
// key types are for an embedder that opens its own conversations.
export {
  type Agent,
  buildAgent,
  type BuildAgentOptions,
  joinUserRuns,
  MAIN_AGENT_ID,
} from "./agent/mod.ts";
// The app's slash commands for a desk (`/status`, `/settings`, `/jobs`): a program that
// assembles a desk registers them; the settings picker's lines before a desk exists.
export { appCommands, type AppCommandsOptions, settingChoices } from "./app/desk_commands.ts";
export {
  type BudgetFacts,
  type Choice,
  type ChoiceKind,
  type CommandContext,
  type CommandEffect,
  type CommandReturn,
  type CommandSpec,
  // Every slash command, the desk's and the plug-ins' (the docs test reads them).
  commandTable,
  type ConversationKey,
  type ConversationPerson,
  type ConversationSnapshot,
  Desk,
  type DeskChannel,
  DeskConversation,
  type DeskEvent,
  type DeskOptions,
  deskSentence,
  type HistoryLine,
  missingCredentialOf,
  type OpenedSession,
  type OpenOptions,
  pickSession,
  type QueuedLine,
  type RoleTarget,
  type ToolRefused,
} from "./desk/mod.ts";

// Memory: the store and the access a conversation's scope gives, which `buildAgent`
// takes as its `memory` (the rest is on the light door `@agent/hub/memory`).
export { accessFor, SqliteMemoryStore } from "./memory/mod.ts";
export {
  type ExtractOptions,
  type ExtractResult,
  extractSession,
  MEMORY_ROLE,
} from "./agent/mod.ts";
export { type MemoryScan, memoryService, type MemorySpine, openMemory } from "./app/mod.ts";
export type { MemoryAccess, MemoryStore, TurnMemory, TurnParty } from "./memory/mod.ts";

// Sessions: the store a conversation keeps its messages in, on files or on the spine.
// An embedder may pass its own `SessionStore`.
// A conversation's messages are stored as `SessionMessage` records of `MESSAGE_VERSION`;
// `readStoredMessage` reads a record of any version.
export {
  FileSessionStore,
  MESSAGE_VERSION,
  readStoredMessage,
  type SessionMessage,
  type SessionStore,
  SpineSessionStore,
  type StoredMessage,
} from "./sessions/mod.ts";

// Tools and components: the built-in tools and components, the registry that loads
// extra components from `[components] modules`, and what such a module exports: a
// `ComponentManifest` whose specs load an `AgentTool` (`agent.tools`) or a
// `SubAgentFactory` (`agent.subs`). A tier-2 tool runs only when the turn's
// `beforeToolCall` hook allows it.
export {
  type AgentTool,
  ApprovalInterrupted,
  type BeforeToolCall,
  BUILTIN_TOOLS,
  type ModelTool,
  type ModelTools,
  netSend,
  refusalText,
  scratchFolder,
  shell,
  type ToolCallCheck,
  type ToolContext,
  type ToolOrigin,
  type ToolRefusal,
  type ToolVerdict,
  type TurnState,
  webSearch,
} from "./tools/mod.ts";
export {
  COMPONENT_GROUPS,
  type ComponentGroup,
  type ComponentInfo,
  type ComponentManifest,
  type ComponentSpec,
} from "./components/mod.ts";
export { enabledTools } from "./tools/mod.ts";
export { BUILTIN_COMPONENTS, loadComponents } from "./app/mod.ts";
// The MCP servers `agent.toml` lists, started for a process that runs turns (terminal
// chat; the hub starts its own). The owner's acts on them are on `@agent/hub/mcp`.
export { type StartMcpOptions, startMcpServers } from "./app/mod.ts";
export { McpConnection, McpServerError, McpServers } from "./mcp/mod_runtime.ts";
export type { McpCloseOptions } from "./mcp/mod_runtime.ts";
export {
  loadSubAgentDirectory,
  type SubAgent,
  type SubAgentDirectory,
  type SubAgentFactory,
} from "./subs/mod.ts";

// Network and events: `agent net` (identity, contacts, the universe) over the network
// service and its store; the turn that answers another agent; the owner events
// (contact requests, budget warnings, failovers), their in-process bus and durable
// log, and the sentence an event becomes on a terminal (chat and the TUI). The network
// end-to-end tests (`tests/hub/`) drive two agents through the same names, the
// event benchmark writes and reads the log, and the conversation benchmark batches
// digests.
export {
  appendNetEvent,
  blockContact,
  type Contact,
  describeMissing,
  fetchAndHandle,
  type Handled,
  handleUpdate,
  IdentityFileError,
  initIdentity,
  joinAndReport,
  joinUniverse,
  leaveUniverse,
  loadIdentity,
  NetDigest,
  type NetLogEntry,
  NetNode,
  NetService,
  NetState,
  type NetTimings,
  NetUsageError,
  networkCheck,
  openNetwork,
  openState,
  OwnSpineError,
  readNetEvents,
  type SendOutcome,
  SpineClient,
  SpineDocuments,
  SpineError,
  type TurnInput,
  UniverseClient,
  UniverseError,
  universeFailure,
  universeFieldsProblem,
  type UniverseJoinFields,
  UniverseReporter,
  type UniverseReporterOptions,
  universeSentence,
  type UniverseStanding,
  universeStanding,
  type UniverseStatus,
  UNREADABLE_SUFFIX,
  type Update,
} from "./network/mod.ts";
export { networkTurn, turnAnswerer, type TurnDeps } from "./network_turn/mod.ts";
export {
  type EventBooks,
  type EventSaid,
  eventText,
  type NetEvent,
  OWNER_EVENT_FIELDS,
  type OwnerEvent,
  OwnerEventBus,
  ownerEventLine,
} from "./events/mod.ts";
// The catalogues an owner event's `said` is read with, each reader in its own language.
export { EVENT_BOOKS } from "./event_books.ts";
// `agent jobs run NAME`: one run of a scheduled job in this process, as the hub runs it.
export { runJobNow, type RunJobNowOptions } from "./app/jobs_run_now.ts";
// Where a job's answer goes (the event stream, each messenger chat), for its delivery worker.
export { jobDeliverySinks } from "./app/jobs_delivery.ts";
// The desks a job's turns run on (the jobs benchmark builds a runner from them).
export { jobDesks } from "./jobs/desks.ts";
// The clock jobs and budgets run by: `startHub({clock})` and a test's `ManualClock`.
export { type Clock, ManualClock, SYSTEM_CLOCK } from "./clock.ts";

// Channels: terminal chat (`agent chat`, `agent cloud` in the foreground) and its line
// input on a terminal or a pipe; the desk tests drive it like the other channels. The
// messenger is a hub channel that starts with the daemon; the TUI is in `@agent/cli`.
export { ANSWER_AFTER_MS } from "./channels/chat/mod.ts";
export { type ChatOptions, runChat } from "./app/terminal_chat.ts";
export {
  type ChatInput,
  PipedInput,
  PromptInterrupted,
  type TerminalHandlers,
  TerminalInput,
} from "./terminal/input.ts";

// The e-mail channel's machinery without the desk (IMAP, trust, the store, the outbox),
// which the e-mail tests drive against a real Dovecot with a scripted answerer; its
// packages load when it connects, reads or sends, not with this door.
export {
  type AnswerCost,
  EmailService,
  type EmailServiceOptions,
  type EmailSettings,
  type EmailStatus,
  type FetchedMail,
  type ImapState,
  type IncomingMail,
  type MailAnswer,
  type MailAnswerer,
  type MailAttachment,
  type MailPerson,
  type MailRow,
  MailStore,
  type MailTurn,
  type OutboxRow,
  readMail,
  type ReadMailOptions,
  type Refusal,
  type RefusedRow,
  type SendRaw,
  type StoreCounts,
  type TakenMail,
} from "./channels/email/mod.ts";

// The daemon and the control API: `agent hub` starts, stops and installs the hub
// (systemd, launchd); other processes reach a running hub over its control API and
// its event stream (`GET /events`; `followHubEvents` keeps following it across the hub's
// restarts, for chat and the TUI). `startHub()` runs a hub inside another program.
export { type Hub, startHub, type StartHubOptions } from "./app/mod.ts";
export {
  agentLaunch,
  hubMessages,
  hubStatus,
  installLaunchd,
  LAUNCHD_LABEL,
  LaunchdError,
  launchdPlist,
  launchdState,
  liveLock,
  readAgentShim,
  runAssembledHub,
  runHub,
  statusLines,
  stopHub,
  systemdUnit,
  uninstallLaunchd,
  unwritableHome,
} from "./daemon/mod.ts";
export {
  bearerHeaders,
  controlHandler,
  fetchControl,
  followHubEvents,
  type FollowHubEventsOptions,
  readHubToken,
  subscribeHubEvents,
  writeHubToken,
} from "./control/mod.ts";
// The web dashboard the control API serves under `/dashboard` (`agent dashboard`).
export {
  dashboard,
  dashboardChat,
  type DashboardDoor,
  dashboardJobs,
  dashboardMcp,
  dashboardMemory,
  dashboardNetwork,
  dashboardSettings,
  type McpRouteSources,
  type MemoryRouteSources,
} from "./dashboard/mod.ts";

// Cloud: `agent cloud` (the brain on the spine, file sync, `agent cloud run`).
// Only the CLI uses these.
export { CloudSpine, cloudStatus, cloudTarget, pullFiles, pushFiles } from "./cloud/mod.ts";
export { runCloud } from "./app/mod.ts";

// The types the signatures above name, so that each is documented with the door
// (`deno doc --lint`): options, results, events and the shapes an embedder passes.
export type { NowSource, TurnOptions, TurnResult } from "./agent/agent.ts";
export type { LoopApproval, LoopCut, LoopEvent, LoopToolCall } from "./router/tool_loop.ts";
export type { CallContext, ModelRequest, RouterEvent, TurnTrace } from "./router/call_types.ts";
export type { RetryOptions } from "./router/mod.ts";
export type { HubContext, HubService, HubServiceFactory } from "./channels/contract.ts";
export type { CloudRunOptions } from "./app/cloud_run.ts";
export type { Lang, Level, ProviderId, Translator, UserError, Vars } from "./base.ts";
export type { CloudFile, CloudHealth } from "./cloud/spine_files.ts";
export type { PullOptions, PullReport, PushOptions } from "./cloud/sync.ts";
export type { LoadRegistryOptions, Registry } from "./components/registry.ts";
export type { BuiltinComponent, ComponentLoadError } from "./components/types.ts";
export type {
  BudgetConfig,
  CacheConfig,
  ComponentsConfig,
  ConfigError,
  FallbackConfig,
  LoadConfigOptions,
  NetConfig,
  Period,
  PriceConfig,
  RoleConfig,
  RoleParams,
  ShippedModels,
  ShippedProvider,
  ToolsConfig,
} from "./config/mod.ts";
export type { ParseConfigOptions } from "./config/parse.ts";
export type { SetupOptions, SetupResult, SetupStep } from "./config/setup.ts";
export type { FetchControlOptions } from "./control/client.ts";
export type { SubscribeHubEventsOptions } from "./control/events_client.ts";
export type { ControlApprovals, ControlSources } from "./control/handler.ts";
export type { HubMessageKey } from "./daemon/_messages.ts";
export type { AgentLaunch, LaunchFacts } from "./daemon/launch.ts";
export type { LaunchdState, PlistOptions, Runner } from "./daemon/launchd.ts";
export type { LockInfo } from "./daemon/lock.ts";
export type {
  AssembledHub,
  HubComponent,
  RunAssembledOptions,
  RunHubOptions,
} from "./daemon/run.ts";
export type { HubStatusOptions, HubStatusReport, StopHubOptions } from "./daemon/status.ts";
export type { SystemdUnitOptions } from "./daemon/systemd.ts";
export type {
  ChatSources,
  DashboardMount,
  DashboardParts,
  DashboardRoutes,
  DashboardSession,
  DashboardSources,
  JobsSources,
  NetworkSources,
  SettingsSources,
} from "./dashboard/mod.ts";
export type { DeskSentence } from "./desk/_messages.ts";
export type { CommandChoice, CommandOutcome } from "./desk/commands.ts";
export type {
  ApprovalDecided,
  ApprovalRequest,
  CommandResult,
  CustomEvent,
  CustomName,
  CustomValues,
  Decision,
  DeskListener,
  EventBase,
  MemoryRecalled,
  Notice,
  Queued,
  RunErrorEvent,
  RunFinishedEvent,
  RunResult,
  RunStartedEvent,
  SessionChanged,
  TextMessageContentEvent,
  TextMessageEndEvent,
  TextMessageStartEvent,
  ToolCallArgsEvent,
  ToolCallEndEvent,
  ToolCallResultEvent,
  ToolCallStartEvent,
} from "./desk/events.ts";
export type {
  DeskWideListener,
  PersonDecision,
  PickedSession,
  PickOptions,
  SubmitOutcome,
} from "./desk/mod.ts";
export type { CheckResult, DoctorContext } from "./doctor/types.ts";
export type { EventSubscription, OwnerEventFeed, SubscribeOptions } from "./events/bus.ts";
export type {
  BudgetWarningEvent,
  ContactRequestEvent,
  DigestConversation,
  EmailRefusedEvent,
  EmailUndeliveredEvent,
  FailoverNetEvent,
  JobNoticeEvent,
  JobResultEvent,
  MemoryProposedEvent,
  NetDigestEvent,
  OutboxDroppedEvent,
  OwnerEventSink,
  ToolNoticeEvent,
} from "./events/types.ts";
export type { RunOutcome, RunState } from "./jobs/mod.ts";
export type { LanguageModelV4, ModelTarget } from "./models/target.ts";
export type {
  BreakdownKey,
  BreakdownOptions,
  BreakdownRow,
  CallPurpose,
  CallRecord,
  Channel,
  DayRow,
  HardCap,
  LedgerAction,
  PendingCall,
  Reservation,
  SessionCeiling,
  SpentTotals,
  TokenTotals,
} from "./ledger/mod.ts";
export type {
  SPEND_BY,
  SpendAmounts,
  SpendBy,
  SpendByOptions,
  SpendByReport,
  SpendByRow,
  SpendObject,
} from "./spend/mod.ts";
export type { SpendChart, SpendChartReader, SpendHours, TurnUsage } from "./spend/chart.ts";
export type { GroupBy, GroupRow } from "./spend/rollup.ts";
export type { NetMessageKey } from "./network/_messages.ts";
export type { AnsweredMessage } from "./network/digest.ts";
export type { HandleDeps } from "./network/handle.ts";
export type {
  IdentitySource,
  InitIdentityResult,
  LoadedIdentity,
} from "./network/identity_file.ts";
export type { TurnAnswerer } from "./network/mod.ts";
export type { PendingReason } from "./network/send_outcome.ts";
export type { FetchOptions, NetServiceOptions, NetStatusBlock } from "./network/service.ts";
export type { NetMissing, OpenedNetwork, OpenNetworkOptions } from "./network/setup.ts";
export type { Delivery, SpineHealth } from "./network/spine_client.ts";
export type { DocumentName, NetDocuments } from "./network/store/documents.ts";
export type {
  ContactState,
  Counts,
  OutboxEntry,
  OutboxKind,
  Profile,
} from "./network/store/state.ts";
export type { SkipReason, TurnContext, TurnOutcome } from "./network/turn_types.ts";
export type { UniverseSnapshot } from "./network/universe.ts";
export type { UniverseJoined } from "./network/universe_actions.ts";
export type { UniverseSentenceKey } from "./network/_universe_messages.ts";
export type { ConfigReload } from "./config/reload.ts";
export type { AgentRequest } from "./network_turn/turn.ts";
export type { PersonaFiles } from "./persona/prompt.ts";
export type { CreateOutcome, SessionSummary } from "./sessions/store.ts";
export type {
  AssistantPart,
  ProviderData,
  ReasoningPart,
  RefusalReason,
  TextPart,
  ToolCallPart,
  ToolOutput,
  ToolResultPart,
  TurnMark,
} from "./sessions/message.ts";
export type { DefinitionProblem } from "./subs/definition.ts";
export type { EntryProblem, PersonaSubAgentDirectory, SubAgentEntry } from "./subs/directory.ts";
export type {
  Card,
  EnvelopeKind,
  Identity,
  UniverseLink,
  UniverseSub,
  WireEnvelope,
} from "@agent/net";
export type { EN as DeskSentencesEn } from "./desk/_messages.ts";
export type { EN as HubSentencesEn } from "./daemon/_messages.ts";
export type { EN as NetSentencesEn } from "./network/_messages.ts";
