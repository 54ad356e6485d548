/**
 * What `agent chat` runs with: shared by its checks (`terminal_chat.ts`) and the
 * conversation they open (`_terminal_chat_run.ts`), which load separately.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { Ledger } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { SessionStore } from "../sessions/mod.ts";
import type { AgentTool } from "../tools/mod.ts";
import type { ChatInput } from "../terminal/input.ts";

/** Options for `runChat()` (`terminal_chat.ts`). */
export interface ChatOptions {
  config: AgentConfig;
  /** The merged environment; `/settings set` adds to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  logger: Logger;
  input: ChatInput;
  /** Writes text as is (answers stream through it). */
  write(text: string): void;
  /** Writes to standard error (a pipe's line for a tool that did not run). @default stderr */
  writeError?: ((text: string) => void) | undefined;
  /**
   * The terminal's width: answers are then drawn as Markdown, wrapped at words. Absent
   * (a pipe, a script), answers are written as the model sent them.
   */
  columns?: (() => number) | undefined;
  /** Paint Markdown styles with ANSI codes (a terminal without `NO_COLOR`). @default false */
  color?: boolean | undefined;
  /** `--role`. */
  role?: string | undefined;
  /** `--resume [ID]`: `true` when bare. */
  resume?: string | true | undefined;
  /** `--session ID`. */
  session?: string | undefined;
  /** Opens the spend ledger (after every check passed). */
  openLedger(): Ledger;
  /** The tools offered (the registry's enabled `agent.tools`), loaded after the checks. */
  tools(): Promise<AgentTool[]>;
  /** @default the store `[sessions] backend` names */
  sessions?: SessionStore | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}
