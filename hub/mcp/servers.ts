/**
 * The MCP servers of one process (the hub, or a chat): each configured server started
 * or reached at once, its tool list checked against the owner's pin, and the tools of
 * the servers that pass offered to the agent. A server that fails is left out with one
 * sentence naming it; one whose tools changed since the pin is disabled and the owner
 * is told once (per changed list, across processes); one that dies is started again at
 * the next call, and checked against its pin again.
 *
 * Only the owner adds a server: the list comes from `agent.toml` and the pins from
 * `agent mcp add|pin`; nothing here writes either, and no tool reaches them.
 *
 * @module
 */
import type { AgentConfig, McpServerConfig } from "../config/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import type { AgentTool } from "../tools/mod.ts";
import { McpConnection, type McpConnectOptions, McpServerError } from "./connection.ts";
import { type ListedTool, PinStore, toolListHash } from "./pins.ts";
import { serverTools } from "./tools.ts";
import { t } from "./_messages.ts";
import type { EventSaid } from "../events/said.ts";

/** A server's state, as `agent mcp list` and `agent components` show it. */
export type McpState = "pinned" | "changed" | "unpinned" | "failed" | "off";

/** One server's state and what it listed. */
export interface McpServerStatus {
  name: string;
  state: McpState;
  /** The sentence of a failure, a change or a missing pin, in the process's language. */
  sentence?: string;
  /** The same sentence in `lang` (the dashboard's page may be in another language). */
  says?: (lang: Lang) => string;
  /** The tools the server listed (for a changed server: the new list). */
  listed: ListedTool[];
  /** Its tools as the agent offers them (none unless pinned). */
  tools: AgentTool[];
  /** Milliseconds its start and listing took. */
  startMs?: number;
}

/** Options for {@linkcode McpServers}. */
export interface McpServersOptions {
  config: Pick<AgentConfig, "mcp">;
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  lang: Lang;
  /**
   * Told each sentence the owner should read once (a changed list, a failed start), in
   * the hub's language, and as its code (`said`) for readers in another.
   */
  notify?: ((sentence: string, server: string, said: EventSaid) => void) | undefined;
  /** The `bwrap` program, for sandboxed servers. */
  bwrap?: string | undefined;
  fetch?: typeof fetch | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/** The MCP servers of a process. */
export class McpServers {
  #options: McpServersOptions;
  #pins: PinStore;
  #status = new Map<string, McpServerStatus>();
  #connections = new Map<string, McpConnection>();
  #opening = new Map<string, Promise<McpConnection>>();

  constructor(options: McpServersOptions) {
    this.#options = options;
    this.#pins = new PinStore(options.paths.dataDir);
  }

  /** The configured servers by name. */
  get servers(): Record<string, McpServerConfig> {
    return this.#options.config.mcp.servers;
  }

  /** Starts every configured server at once; resolves when each is up, off or failed. */
  async start(): Promise<void> {
    await Promise.all(Object.keys(this.servers).map((name) => this.#startOne(name)));
  }

  /** The tools of every pinned, running server, in configuration order. */
  tools(): AgentTool[] {
    return Object.keys(this.servers).flatMap((name) => this.#status.get(name)?.tools ?? []);
  }

  /** Every configured server's state (`off` before {@linkcode start}). */
  statuses(): McpServerStatus[] {
    return Object.keys(this.servers).map((name) =>
      this.#status.get(name) ?? { name, state: "off", listed: [], tools: [] }
    );
  }

  /** Stops every server. */
  async close(): Promise<void> {
    const all = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(all.map((c) => c.close()));
  }

  async #startOne(name: string): Promise<void> {
    try {
      await this.#connection(name);
    } catch (error) {
      if (!(error instanceof McpServerError)) throw error;
      // The sentence is kept in the status; #connection has told the owner.
    }
  }

  /** The live connection of `name`, started (and checked against its pin) when needed. */
  #connection(name: string): Promise<McpConnection> {
    const live = this.#connections.get(name);
    if (live?.alive) return Promise.resolve(live);
    let opening = this.#opening.get(name);
    if (opening === undefined) {
      opening = this.#open(name).finally(() => this.#opening.delete(name));
      this.#opening.set(name, opening);
    }
    return opening;
  }

  async #open(name: string): Promise<McpConnection> {
    const server = this.servers[name]!;
    const lang = this.#options.lang;
    const options: McpConnectOptions = {
      name,
      server,
      env: this.#options.env,
      paths: this.#options.paths,
      bwrap: this.#options.bwrap,
      fetch: this.#options.fetch,
    };
    let connection: McpConnection;
    try {
      connection = await McpConnection.open(options);
    } catch (error) {
      if (!(error instanceof McpServerError)) throw error;
      const sentence = error.sentence(lang);
      this.#status.set(name, {
        name,
        state: "failed",
        sentence,
        says: (l) => error.sentence(l),
        listed: [],
        tools: [],
      });
      this.#options.notify?.(sentence, name, error.said());
      throw error;
    }
    const listed = connection.tools;
    const hash = await toolListHash(listed);
    const pin = (await this.#pins.read())[name];
    if (pin === undefined || pin.hash !== hash) {
      await connection.close();
      const state = pin === undefined ? "unpinned" : "changed";
      const sentence = t(lang, state, { name });
      this.#status.set(name, {
        name,
        state,
        sentence,
        says: (l) => t(l, state, { name }),
        listed,
        tools: [],
      });
      const now = (this.#options.now ?? Date.now)();
      if (pin !== undefined && await this.#pins.noteChange(name, listed, hash, now)) {
        this.#options.notify?.(sentence, name, { code: `mcp.${state}`, vars: { name } });
      }
      throw new McpServerError(name, "other", { detail: sentence });
    }
    this.#connections.set(name, connection);
    this.#status.set(name, {
      name,
      state: "pinned",
      listed,
      tools: serverTools(
        name,
        server,
        listed,
        (tool, args, signal) => this.#call(name, tool, args, signal),
      ),
      startMs: connection.startMs,
    });
    return connection;
  }

  /** Calls `tool` of `name`, starting the server again if it left; throws its sentence. */
  async #call(name: string, tool: string, args: unknown, signal?: AbortSignal) {
    let connection: McpConnection;
    try {
      connection = await this.#connection(name);
    } catch (error) {
      // Read by the model: its sentences are in English whatever the owner's language.
      const status = this.#status.get(name);
      if (status?.state === "changed" || status?.state === "unpinned") {
        throw new Error(t("en", status.state, { name }));
      }
      throw error instanceof McpServerError ? new Error(error.sentence("en")) : error;
    }
    try {
      return await connection.call(tool, args, signal);
    } catch (error) {
      if (error instanceof McpServerError) {
        if (error.failure !== "tool") {
          this.#options.notify?.(error.sentence(this.#options.lang), name, error.said());
        }
        throw new Error(error.sentence("en"));
      }
      throw error;
    }
  }
}
