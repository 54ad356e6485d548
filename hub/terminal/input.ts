/**
 * Where a terminal command reads from: a terminal (line editing and history through
 * node's readline, lines taken as they are entered, y/N questions, a hidden prompt for
 * keys) or a pipe (one line at a time; a key for `/settings set` is the next line,
 * never echoed). `agent chat` is the main reader; `agent cloud push` asks its y/N here.
 *
 * @module
 */

/** Ctrl-C at a y/N question, or the terminal closed while it waited. */
export class PromptInterrupted extends Error {
  override name = "PromptInterrupted";
  constructor() {
    super("Question interrupted: the person pressed Ctrl-C at the prompt");
  }
}

/** What a terminal tells chat while it listens. */
export interface TerminalHandlers {
  /** A line was entered (at the prompt, or typed while an answer streams). */
  line(text: string): void;
  /** Ctrl-C (outside a y/N question). */
  interrupt(): void;
  /** Ctrl-D or the end of input. */
  end(): void;
}

/** What chat reads. */
export interface ChatInput {
  /** Whether a person is typing (a terminal). */
  readonly interactive: boolean;
  /** The next line, or `null` at the end of input (a pipe). */
  readLine(prompt: string): Promise<string | null>;
  /**
   * Takes every line as it is entered, until the end (a terminal): what is typed while
   * an answer streams is not lost.
   */
  listen(handlers: TerminalHandlers): void;
  /** Shows `prompt` and waits for a line (a terminal). */
  prompt(prompt: string): void;
  /**
   * A yes/no question; no terminal means no. Throws {@linkcode PromptInterrupted} on
   * Ctrl-C; answers no when `signal` aborts (the question was withdrawn).
   */
  confirm(question: string, signal?: AbortSignal): Promise<boolean>;
  /** A secret, never echoed; `null` when none was given. */
  secret(prompt: string): Promise<string | null>;
  /** Calls `handler` on Ctrl-C while a pipe is read; returns a function that stops it. */
  onInterrupt(handler: () => void): () => void;
  /** Throws away what is typed on the prompt's line (a terminal). */
  clearLine?(): void;
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

  listen(handlers: TerminalHandlers): void {
    void (async () => {
      for (let line = await this.readLine(); line !== null; line = await this.readLine()) {
        handlers.line(line);
      }
      handlers.end();
    })();
  }

  prompt(): void {}

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

type Readline = import("node:readline").Interface;

/** Input from a terminal, through node's readline (history, line editing). */
export class TerminalInput implements ChatInput {
  readonly interactive = true;
  #rl: Readline | undefined;
  #opening: Promise<Readline> | undefined;
  #handlers: TerminalHandlers | undefined;
  #ended = false;
  /** Set while the readline interface is closed on purpose (a hidden prompt). */
  #suspended = false;
  /** Ctrl-C during a question. */
  #onQuestionSigint: (() => void) | undefined;

  #open(): Promise<Readline> {
    if (this.#rl) return Promise.resolve(this.#rl);
    this.#opening ??= this.#create().finally(() => this.#opening = undefined);
    return this.#opening;
  }

  async #create(): Promise<Readline> {
    const readline = await import("node:readline");
    const process = (await import("node:process")).default;
    const rl = readline.createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: true,
    });
    rl.on("line", (line) => this.#handlers?.line(line));
    rl.on("close", () => {
      if (this.#suspended) return;
      this.#ended = true;
      this.#handlers?.end();
    });
    rl.on("SIGINT", () => {
      if (this.#onQuestionSigint) this.#onQuestionSigint();
      else this.#handlers?.interrupt();
    });
    this.#rl = rl;
    return rl;
  }

  async readLine(prompt: string): Promise<string | null> {
    const rl = await this.#open();
    if (this.#ended) return null;
    return await new Promise((resolve) => rl.question(prompt, resolve));
  }

  listen(handlers: TerminalHandlers): void {
    this.#handlers = handlers;
    void this.#open();
  }

  prompt(prompt: string): void {
    void this.#open().then((rl) => {
      if (this.#ended) return;
      rl.setPrompt(prompt);
      rl.prompt(true);
    });
  }

  async confirm(question: string, signal?: AbortSignal): Promise<boolean> {
    const rl = await this.#open();
    if (this.#ended || signal?.aborted) return false;
    try {
      return await new Promise<boolean>((resolve, reject) => {
        this.#onQuestionSigint = () => reject(new PromptInterrupted());
        const ended = () => reject(new PromptInterrupted());
        rl.once("close", ended);
        // A withdrawn question takes no line: what is typed next goes to chat again.
        signal?.addEventListener("abort", () => {
          rl.off("close", ended);
          resolve(false);
        }, { once: true });
        rl.question(`${question} [y/N] `, { signal }, (answer) => {
          rl.off("close", ended);
          resolve(/^(y|yes|e|evet)$/i.test(answer.trim()));
        });
      });
    } finally {
      this.#onQuestionSigint = undefined;
    }
  }

  async secret(prompt: string): Promise<string | null> {
    // Our line reader must let go of the terminal, or it would echo the keys typed
    // into the hidden prompt; it opens again afterwards.
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
    } finally {
      if (this.#handlers !== undefined) await this.#open();
    }
  }

  onInterrupt(handler: () => void): () => void {
    return listenSigint(handler);
  }

  clearLine(): void {
    // Readline's own keys: to the end of the line, then everything before the cursor.
    this.#rl?.write(null, { ctrl: true, name: "e" });
    this.#rl?.write(null, { ctrl: true, name: "u" });
  }

  close(): void {
    this.#handlers = undefined;
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
