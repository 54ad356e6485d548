/**
 * Where chat reads from: a terminal (line editing, y/N approvals, a hidden prompt for
 * keys) or a pipe (one message per line; approvals are answered no; a key for
 * `/settings set` is the next line, never echoed).
 *
 * @module
 */
import { ApprovalInterrupted } from "../tools/mod.ts";

/** What chat reads. */
export interface ChatInput {
  /** Whether a person is typing (a terminal). */
  readonly interactive: boolean;
  /** The next line, or `null` at the end of input (Ctrl-D). */
  readLine(prompt: string): Promise<string | null>;
  /** A yes/no question; no terminal means no. Throws `ApprovalInterrupted` on Ctrl-C. */
  confirm(question: string): Promise<boolean>;
  /** A secret, never echoed; `null` when none was given. */
  secret(prompt: string): Promise<string | null>;
  /** Calls `handler` on Ctrl-C while a turn runs; returns a function that stops it. */
  onInterrupt(handler: () => void): () => void;
  close(): void;
}

/** Input from a pipe: one line per message. */
export class PipedInput implements ChatInput {
  readonly interactive = false;
  #lines: AsyncIterator<string>;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  /** Reads `stream` (default stdin) line by line. */
  constructor(stream: ReadableStream<Uint8Array> = Deno.stdin.readable) {
    this.#reader = stream.getReader();
    this.#lines = lines(this.#reader);
  }

  async readLine(): Promise<string | null> {
    const next = await this.#lines.next();
    return next.done ? null : next.value;
  }

  confirm(): Promise<boolean> {
    return Promise.resolve(false);
  }

  secret(): Promise<string | null> {
    return this.readLine();
  }

  onInterrupt(handler: () => void): () => void {
    return listenSigint(handler);
  }

  close(): void {
    this.#reader?.releaseLock();
    this.#reader = undefined;
  }
}

async function* lines(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let at: number;
    while ((at = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, at).replace(/\r$/, "");
      buffer = buffer.slice(at + 1);
    }
  }
  buffer += decoder.decode();
  if (buffer !== "") yield buffer.replace(/\r$/, "");
}

/** Input from a terminal, through node's readline (history, line editing). */
export class TerminalInput implements ChatInput {
  readonly interactive = true;
  #rl: import("node:readline").Interface | undefined;
  #closed = false;
  #suspended = false;
  #pendingLine: ((line: string | null) => void) | undefined;
  #onSigint: (() => void) | undefined;

  async #open(): Promise<import("node:readline").Interface> {
    if (this.#rl) return this.#rl;
    const readline = await import("node:readline");
    const process = (await import("node:process")).default;
    const rl = readline.createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: true,
    });
    rl.on("close", () => {
      if (this.#suspended) return;
      this.#closed = true;
      this.#pendingLine?.(null);
      this.#pendingLine = undefined;
    });
    rl.on("SIGINT", () => {
      if (this.#onSigint) this.#onSigint();
      else if (this.#pendingLine) {
        // Ctrl-C at the prompt leaves chat the way a shell does. Between a line and
        // its turn (or a slash command) no prompt is open, and the key is dropped.
        rl.close();
        Deno.exit(130);
      }
    });
    this.#rl = rl;
    return rl;
  }

  async readLine(prompt: string): Promise<string | null> {
    const rl = await this.#open();
    if (this.#closed) return null;
    return await new Promise((resolve) => {
      this.#pendingLine = resolve;
      rl.question(prompt, (answer) => {
        this.#pendingLine = undefined;
        resolve(answer);
      });
    });
  }

  async confirm(question: string): Promise<boolean> {
    const rl = await this.#open();
    if (this.#closed) return false;
    const previous = this.#onSigint;
    try {
      return await new Promise<boolean>((resolve, reject) => {
        this.#onSigint = () => reject(new ApprovalInterrupted());
        this.#pendingLine = (line) => line === null ? reject(new ApprovalInterrupted()) : undefined;
        rl.question(`${question} [y/N] `, (answer) => {
          this.#pendingLine = undefined;
          resolve(/^(y|yes|e|evet)$/i.test(answer.trim()));
        });
      });
    } finally {
      this.#onSigint = previous;
    }
  }

  async secret(prompt: string): Promise<string | null> {
    // Our line reader must let go of the terminal, or it would echo the keys typed
    // into the hidden prompt.
    if (this.#rl) {
      this.#suspended = true;
      this.#rl.close();
      this.#rl = undefined;
      this.#suspended = false;
    }
    try {
      const { password } = await import("@inquirer/prompts");
      const value = await password({ message: prompt, mask: false });
      return value === "" ? null : value;
    } catch {
      return null;
    }
  }

  onInterrupt(handler: () => void): () => void {
    const previous = this.#onSigint;
    this.#onSigint = handler;
    const stop = listenSigint(handler);
    return () => {
      this.#onSigint = previous;
      stop();
    };
  }

  close(): void {
    this.#rl?.close();
  }
}

function listenSigint(handler: () => void): () => void {
  try {
    Deno.addSignalListener("SIGINT", handler);
  } catch {
    return () => {};
  }
  return () => {
    try {
      Deno.removeSignalListener("SIGINT", handler);
    } catch { /* already gone */ }
  };
}
