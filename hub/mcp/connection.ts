/**
 * One MCP server, connected: started over stdio (a child with a scrubbed environment,
 * in its working folder `<data>/mcp/<name>`, inside bubblewrap with `sandbox = true`)
 * or reached over Streamable HTTP, through the official SDK's client. The client
 * declares no capability: a server's `sampling` request (asking this agent's model to
 * write for it), `elicitation` or `roots` is answered "method not found".
 *
 * Every way a server fails becomes an {@linkcode McpServerError} whose sentence names
 * the server: it does not start, answers garbage, hangs past `timeout_seconds`, or dies
 * during a call. A failed connection is closed (the child killed); the caller goes on
 * without it.
 *
 * The SDK (a few hundred milliseconds to load) is imported as the first connection
 * opens, after a stdio server's child has been started: the two start side by side.
 *
 * @module
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../config/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { Lang } from "../i18n.ts";
import { oneLine, printable } from "../text.ts";
import { errorMessage } from "@agent/net/common";
import { sandboxArgs } from "../sandbox/mod.ts";
import { DenoStdioTransport } from "./stdio_transport.ts";
import { serverEnv, serverHeaders } from "./server_env.ts";
import type { ListedTool } from "./pins.ts";
import { t } from "./_messages.ts";
import { type EventSaid, saidText } from "../events/said.ts";

/** How a server failed. */
export type McpFailure =
  | "start"
  | "not_found"
  | "timeout"
  | "garbage"
  | "died"
  | "refused"
  | "http"
  | "tool"
  | "no_sandbox"
  | "other";

/** A server failed; {@linkcode McpServerError.sentence} says so in a language. */
export class McpServerError extends Error {
  override name = "McpServerError";
  readonly server: string;
  readonly failure: McpFailure;
  readonly #vars: Record<string, string | number>;

  constructor(
    server: string,
    failure: McpFailure,
    vars: Record<string, string | number>,
    options?: ErrorOptions,
  ) {
    super(saidText("en", saidOf(server, failure, vars), { mcp: t }) ?? failure, options);
    this.server = server;
    this.failure = failure;
    this.#vars = vars;
  }

  /** The one sentence naming the server, in `lang`. */
  sentence(lang: Lang): string {
    return saidText(lang, this.said(), { mcp: t }) ?? this.message;
  }

  /** The sentence as a code and its parameters, for an owner event's `said`. */
  said(): EventSaid {
    return saidOf(this.server, this.failure, this.#vars);
  }
}

/**
 * A failure's sentence as a code and its parameters (an owner event's `said`): the one
 * source of {@linkcode McpServerError.sentence} in every language.
 */
function saidOf(
  name: string,
  failure: McpFailure,
  vars: Record<string, string | number>,
): EventSaid {
  // As written (a number of seconds is no count to group).
  const v: Record<string, string> = { name };
  for (const [key, value] of Object.entries(vars)) v[key] = String(value);
  const said = (key: string, values: Record<string, string> = v): EventSaid => ({
    code: `mcp.${key}`,
    vars: values,
  });
  switch (failure) {
    case "not_found":
      return {
        ...said("start_failed", { name }),
        parts: { detail: said("not_found", { command: v.command ?? "" }) },
      };
    case "start":
      return {
        ...said("start_failed", { name }),
        parts: { detail: v.said ? said("exited_said", { said: v.said }) : said("exited", {}) },
      };
    case "timeout":
      return said("timed_out");
    case "garbage":
      return said("garbage");
    case "died":
      return said("died");
    case "refused":
      return said("refused");
    case "http":
      return said("http_status");
    case "tool":
      return said("tool_failed");
    case "no_sandbox":
      return said("no_sandbox");
    default:
      return said("failed", { name, detail: v.detail ?? "" });
  }
}

/** Options for {@linkcode McpConnection.open}. */
export interface McpConnectOptions {
  name: string;
  server: McpServerConfig;
  /** The merged `.env` and process environment (only the allowed names pass). */
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  /** The `bwrap` program, for a server with `sandbox = true`. */
  bwrap?: string | undefined;
  /** For Streamable HTTP. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** Gives up the start (the server is stopped): `agent mcp add` when the file it would write does not validate. */
  signal?: AbortSignal | undefined;
  /**
   * Called once a stdio server's process runs (an HTTP server's transport is made),
   * before the SDK loads: work the caller starts then runs beside the server's own
   * start instead of delaying it.
   */
  onStarted?: (() => void) | undefined;
}

/** What a tool call returned, as the SDK gives it. */
export interface McpCallResult {
  content?: unknown[] | undefined;
  structuredContent?: unknown;
  isError?: boolean | undefined;
}

/** Options for {@linkcode McpConnection.close}. */
export interface McpCloseOptions {
  /**
   * The server did no work for us (it only listed its tools): a stdio server is asked
   * to stop (SIGTERM) as soon as its input closes, with no grace to leave on its own.
   * @default false
   */
  prompt?: boolean | undefined;
}

type SdkClient = typeof import("@modelcontextprotocol/sdk/client/index.js");
type SdkTypes = typeof import("@modelcontextprotocol/sdk/types.js");
let sdkClient: Promise<SdkClient> | undefined;
/** The SDK's error type and codes, once loaded (an error before that is not the SDK's). */
let sdkTypes: SdkTypes | undefined;

/** The SDK's client (and its error types), loaded once. */
function loadSdkClient(): Promise<SdkClient> {
  return sdkClient ??= (async () => {
    const [client, types] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
    sdkTypes = types;
    return client;
  })();
}

/** A connected server. */
export class McpConnection {
  readonly name: string;
  /** The tools it listed when it connected. */
  readonly tools: ListedTool[];
  /** Milliseconds from start to the listed tools. */
  readonly startMs: number;
  #client: Client;
  #transport: Transport;
  #state: TransportState;
  #timeoutMs: number;
  #closed = false;

  private constructor(
    name: string,
    client: Client,
    transport: Transport,
    state: TransportState,
    tools: ListedTool[],
    timeoutMs: number,
    startMs: number,
  ) {
    this.name = name;
    this.#client = client;
    this.#transport = transport;
    this.#state = state;
    this.tools = tools;
    this.#timeoutMs = timeoutMs;
    this.startMs = startMs;
  }

  /** Still connected (the server has not left or failed). */
  get alive(): boolean {
    return !this.#closed && !this.#state.ended;
  }

  /**
   * Starts or reaches the server, initialises and lists its tools (every page).
   * Throws {@linkcode McpServerError}; nothing is left running when it does.
   */
  static async open(options: McpConnectOptions): Promise<McpConnection> {
    const { name, server } = options;
    const started = performance.now();
    const timeoutMs = server.timeout_seconds * 1000;
    const state: TransportState = { ended: false, garbage: false };
    let transport: Transport | undefined;
    let client: Client | undefined;
    const signal = options.signal;
    const requests = { timeout: timeoutMs, ...(signal !== undefined ? { signal } : {}) };
    try {
      transport = await makeTransport(options, state);
      signal?.throwIfAborted();
      // The server starts while the SDK loads.
      if (transport instanceof DenoStdioTransport) transport.spawn();
      options.onStarted?.();
      const { Client } = await loadSdkClient();
      client = new Client({ name: "agent", version: "0.1.0" }, { capabilities: {} });
      client.onerror = () => {};
      await client.connect(transport, requests);
      const tools: ListedTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, requests);
        for (const tool of page.tools) {
          tools.push({
            name: tool.name,
            description: tool.description ?? "",
            inputSchema: tool.inputSchema as Record<string, unknown>,
          });
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined && tools.length < 1000);
      return new McpConnection(
        name,
        client,
        transport,
        state,
        tools,
        timeoutMs,
        Math.round(performance.now() - started),
      );
    } catch (error) {
      // It did nothing for us: no grace to leave on its own.
      if (transport instanceof DenoStdioTransport) transport.closeWith({ graceMs: 0 });
      await closeQuietly(client, transport);
      throw failureOf(name, error, state, {
        seconds: server.timeout_seconds,
        phase: "start",
        command: server.command ?? "",
        url: server.url ?? "",
      });
    }
  }

  /**
   * Calls `tool` with `args`. Throws {@linkcode McpServerError} when the server hangs,
   * dies or answers garbage (the connection is then closed); a tool's own error comes
   * back as a result with `isError`.
   */
  async call(tool: string, args: unknown, signal?: AbortSignal): Promise<McpCallResult> {
    if (!this.alive) throw new McpServerError(this.name, "died", { tool });
    try {
      return await this.#client.callTool(
        { name: tool, arguments: (args ?? {}) as Record<string, unknown> },
        undefined,
        { timeout: this.#timeoutMs, ...(signal !== undefined ? { signal } : {}) },
      ) as McpCallResult;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const failure = failureOf(this.name, error, this.#state, {
        seconds: this.#timeoutMs / 1000,
        phase: "call",
        tool,
      });
      // A hung or broken server is stopped; the next turn starts it again.
      if (failure.failure !== "tool") await this.close();
      throw failure;
    }
  }

  /** Closes the connection (a stdio server's child is ended). */
  async close(options: McpCloseOptions = {}): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (options.prompt === true && this.#transport instanceof DenoStdioTransport) {
      this.#transport.closeWith({ graceMs: 0 });
    }
    await closeQuietly(this.#client, this.#transport);
  }
}

interface TransportState {
  ended: boolean;
  garbage: boolean;
  stderr?: () => string;
}

async function makeTransport(
  options: McpConnectOptions,
  state: TransportState,
): Promise<Transport> {
  const { name, server, paths } = options;
  if (server.url !== undefined) {
    const headers = serverHeaders(server, options.env);
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers },
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    });
    transport.onclose = () => state.ended = true;
    return transport;
  }
  const command = server.command!;
  const workdir = `${paths.dataDir}/mcp/${name}`;
  await Deno.mkdir(workdir, { recursive: true, mode: 0o700 });
  let program = command;
  let args = server.args;
  let env = serverEnv(server, options.env);
  if (server.sandbox) {
    if (options.bwrap === undefined) throw new McpServerError(name, "no_sandbox", {});
    args = sandboxArgs([command, ...server.args], {
      binds: [
        { host: workdir, writable: true },
        ...server.sandbox_read.map((host) => ({ host })),
      ],
      hidden: [paths.home, paths.dataDir],
      network: server.sandbox_network,
      cwd: workdir,
      env: serverEnv(server, options.env, workdir),
    });
    program = options.bwrap;
    env = {};
  }
  const transport = new DenoStdioTransport({ command: program, args, env, cwd: workdir });
  state.stderr = () => transport.stderrTail;
  // Set before the SDK connects, which chains its own handlers after these.
  transport.onclose = () => state.ended = true;
  transport.onerror = (error: Error) => {
    // A line that is not JSON-RPC: garbage. The server is stopped, so what waits on it
    // fails now rather than at its timeout.
    if (error instanceof SyntaxError || error.name === "ZodError" || /JSON/i.test(error.message)) {
      state.garbage = true;
      void transport.close();
    }
  };
  return transport;
}

function failureOf(
  name: string,
  error: unknown,
  state: TransportState,
  where: {
    seconds: number;
    phase: "start" | "call";
    tool?: string;
    command?: string;
    url?: string;
  },
): McpServerError {
  if (error instanceof McpServerError) return error;
  if (error instanceof Deno.errors.NotFound) {
    return new McpServerError(name, "not_found", { command: where.command ?? "" }, {
      cause: error,
    });
  }
  const message = errorMessage(error);
  if (state.garbage) return new McpServerError(name, "garbage", {}, { cause: error });
  // The SDK's own errors carry a JSON-RPC code.
  const types = sdkTypes;
  const code = types !== undefined && error instanceof types.McpError
    ? (error as { code?: unknown }).code
    : undefined;
  if (types !== undefined && code !== undefined) {
    const { ErrorCode } = types;
    if (code === ErrorCode.RequestTimeout) {
      return new McpServerError(name, "timeout", { seconds: where.seconds }, { cause: error });
    }
    if (code === ErrorCode.ConnectionClosed) {
      if (where.phase === "call") {
        return new McpServerError(name, "died", { tool: where.tool ?? "" }, { cause: error });
      }
      // The last line it wrote, without colours.
      // deno-lint-ignore no-control-regex
      const tail = (state.stderr?.() ?? "").replace(/\x1b\[[0-9;]*m/g, "").trim().split("\n").at(
        -1,
      );
      const said = oneLine(printable(tail ?? ""), { max: 160, ellipsis: true });
      return new McpServerError(name, "start", said === "" ? {} : { said }, { cause: error });
    }
    if (where.phase === "call") {
      return new McpServerError(name, "tool", {
        tool: where.tool ?? "",
        detail: oneLine(printable(message), { max: 200, ellipsis: true }),
      }, { cause: error });
    }
  }
  const status = /HTTP (\d{3})|\b(\d{3})\b.*(?:status|Error POSTing)/i.exec(message);
  if (/Connection refused|ECONNREFUSED/i.test(message)) {
    return new McpServerError(name, "refused", { url: where.url ?? "" }, { cause: error });
  }
  if (status !== null && /HTTP|POST|status/i.test(message)) {
    return new McpServerError(name, "http", { status: status[1] ?? status[2] ?? "" }, {
      cause: error,
    });
  }
  if (state.ended && where.phase === "call") {
    return new McpServerError(name, "died", { tool: where.tool ?? "" }, { cause: error });
  }
  return new McpServerError(name, "other", {
    detail: oneLine(printable(message), { max: 200, ellipsis: true }),
  }, { cause: error });
}

async function closeQuietly(
  client: Client | undefined,
  transport: Transport | undefined,
): Promise<void> {
  try {
    await client?.close();
  } catch { /* already closed */ }
  try {
    await transport?.close();
  } catch { /* already closed */ }
}
