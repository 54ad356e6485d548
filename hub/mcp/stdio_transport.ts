/**
 * The MCP SDK's transport interface over a Deno child: the server's standard input and
 * output carry newline-delimited JSON-RPC (the SDK's own reader and writer). The SDK's
 * stdio transport always adds `HOME LOGNAME PATH SHELL TERM USER` of the agent's
 * process to the child's environment and waits up to 4 s to stop one; this one passes
 * exactly the environment it is given (`clearEnv`) and kills a server that does not
 * leave within a second of its input closing.
 *
 * The child can be started ({@linkcode DenoStdioTransport.spawn}) before the SDK is
 * loaded: the server's own start-up (a few hundred milliseconds for an npm server) then
 * runs while this process loads the SDK, and its first lines wait in the pipe.
 *
 * @module
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Options for {@linkcode DenoStdioTransport}. */
export interface DenoStdioOptions {
  /** The program to start. */
  command: string;
  args: readonly string[];
  /** The child's whole environment. */
  env: Readonly<Record<string, string>>;
  /** The child's working folder (must exist). */
  cwd: string;
  /** The last bytes of the server's standard error kept, for a sentence. @default 2048 */
  stderrBytes?: number | undefined;
}

/** How {@linkcode DenoStdioTransport.close} stops the server. */
export interface DenoStdioCloseOptions {
  /**
   * Milliseconds the server may take to leave once its input closes; then it gets
   * SIGTERM (MCP's stdio shutdown), and SIGKILL a second later. 0 for a server that
   * did no work for us (it only listed its tools): nothing of it is worth waiting for.
   * @default 1000
   */
  graceMs?: number | undefined;
}

type SdkStdio = typeof import("@modelcontextprotocol/sdk/shared/stdio.js");
let sdkStdio: Promise<SdkStdio> | undefined;

/** The SDK's reader and writer of newline-delimited JSON-RPC, loaded once. */
function loadSdkStdio(): Promise<SdkStdio> {
  return sdkStdio ??= import("@modelcontextprotocol/sdk/shared/stdio.js");
}

/** Node's Buffer, which the SDK's reader takes: loaded after the child started. */
async function loadBuffer(): Promise<typeof import("node:buffer").Buffer> {
  return (await import("node:buffer")).Buffer;
}

/** A stdio MCP server as a child process of this one. */
export class DenoStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  #options: DenoStdioOptions;
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #buffer: InstanceType<SdkStdio["ReadBuffer"]> | undefined;
  #stderr = "";
  #closed = false;
  #started = false;
  #graceMs = 1000;
  #encoder = new TextEncoder();

  constructor(options: DenoStdioOptions) {
    this.#options = options;
  }

  /** The end of what the server wrote to its standard error (one line's worth). */
  get stderrTail(): string {
    return this.#stderr;
  }

  /** The child's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Starts the child now, before the SDK's client is ready to connect (which calls
   * {@linkcode start}); throws what `Deno.Command.spawn` throws (`NotFound`).
   */
  spawn(): void {
    if (this.#child !== undefined) return;
    const child = new Deno.Command(this.#options.command, {
      args: [...this.#options.args],
      env: { ...this.#options.env },
      clearEnv: true,
      cwd: this.#options.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    void this.#read(child.stdout);
    void this.#readErrors(child.stderr);
    void child.status.then(() => this.#ended());
  }

  /** Called by the SDK's client as it connects: starts the child unless {@linkcode spawn} did. */
  start(): Promise<void> {
    if (this.#started) throw new Error("DenoStdioTransport already started");
    this.#started = true;
    try {
      this.spawn();
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  async #read(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      // What the server writes before the SDK is here waits in the pipe.
      const [{ ReadBuffer }, Buffer] = await Promise.all([loadSdkStdio(), loadBuffer()]);
      const buffer = this.#buffer = new ReadBuffer();
      for await (const chunk of stream) {
        buffer.append(Buffer.from(chunk));
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = buffer.readMessage();
          } catch (error) {
            // A line that is not JSON-RPC: the server answers garbage.
            this.onerror?.(error instanceof Error ? error : new Error(String(error)));
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      }
    } catch { /* the pipe closed with the child */ }
  }

  async #readErrors(stream: ReadableStream<Uint8Array>): Promise<void> {
    const keep = this.#options.stderrBytes ?? 2048;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) {
        this.#stderr = (this.#stderr + decoder.decode(chunk, { stream: true })).slice(-keep);
      }
    } catch { /* closed */ }
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#writer === undefined || this.#closed) throw new Error("Not connected");
    const { serializeMessage } = await loadSdkStdio();
    await this.#writer.write(this.#encoder.encode(serializeMessage(message)));
  }

  /**
   * Sets how the next {@linkcode close} stops the server (the SDK's client calls
   * `close()` without arguments).
   */
  closeWith(options: DenoStdioCloseOptions): void {
    this.#graceMs = options.graceMs ?? 1000;
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    try {
      await this.#writer?.close();
    } catch { /* the child already left */ }
    if (this.#graceMs > 0) {
      // The server may leave on its own once its input closes (the polite way).
      if (!(await exitsWithin(child, this.#graceMs))) signal(child, "SIGKILL");
    } else {
      signal(child, "SIGTERM");
      if (!(await exitsWithin(child, 1000))) signal(child, "SIGKILL");
    }
    await child.status;
    this.#buffer?.clear();
    this.#ended();
  }
}

/** Whether `child` exits within `ms`. */
async function exitsWithin(child: Deno.ChildProcess, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gone = await Promise.race([
    child.status.then(() => true),
    new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms)),
  ]);
  clearTimeout(timer);
  return gone;
}

function signal(child: Deno.ChildProcess, name: Deno.Signal): void {
  try {
    child.kill(name);
  } catch { /* gone meanwhile */ }
}
