/**
 * The MCP SDK's transport interface over a Deno child: the server's standard input and
 * output carry newline-delimited JSON-RPC (the SDK's own reader and writer). The SDK's
 * stdio transport always adds `HOME LOGNAME PATH SHELL TERM USER` of the agent's
 * process to the child's environment and waits up to 4 s to stop one; this one passes
 * exactly the environment it is given (`clearEnv`) and kills a server that does not
 * leave within a second of its input closing.
 *
 * @module
 */
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { Buffer } from "node:buffer";

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

/** A stdio MCP server as a child process of this one. */
export class DenoStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  #options: DenoStdioOptions;
  #child: Deno.ChildProcess | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #buffer = new ReadBuffer();
  #stderr = "";
  #closed = false;
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

  start(): Promise<void> {
    if (this.#child !== undefined) {
      throw new Error("DenoStdioTransport already started");
    }
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
    return Promise.resolve();
  }

  async #read(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) {
        this.#buffer.append(Buffer.from(chunk));
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.#buffer.readMessage();
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
    await this.#writer.write(this.#encoder.encode(serializeMessage(message)));
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    try {
      await this.#writer?.close();
    } catch { /* the child already left */ }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gone = await Promise.race([
      child.status.then(() => true),
      new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), 1000)),
    ]);
    clearTimeout(timer);
    if (!gone) {
      try {
        child.kill("SIGKILL");
      } catch { /* gone meanwhile */ }
      await child.status;
    }
    this.#buffer.clear();
    this.#ended();
  }
}
