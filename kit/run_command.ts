/**
 * Running a program for the spine kit's deploy commands: its exit code, its output
 * line by line or captured, text on standard input (how secrets reach wrangler).
 *
 * @module
 */

/** What a command run through {@linkcode Runner} returned. */
export interface RunResult {
  /** The exit code; -1 when the program does not exist. */
  code: number;
  /** Standard output (only when `capture` was asked for). */
  stdout: string;
}

/** How a command is run. */
export interface RunOptions {
  /** The working directory. */
  cwd: string;
  /** Text written to standard input, which is then closed. */
  stdin?: string;
  /** Variables added to the inherited environment. */
  env?: Record<string, string>;
  /** Keep standard output instead of passing its lines to `onLine`. */
  capture?: boolean;
  /** Receives each line of output (standard output and error) as it comes. */
  onLine?: (line: string) => void;
}

/** Runs `program args` and returns its exit code (and output when captured). */
export type Runner = (program: string, args: string[], options: RunOptions) => Promise<RunResult>;

/** Runs a program with `Deno.Command`; a program that does not exist gives code -1. */
export async function runCommand(
  program: string,
  args: string[],
  options: RunOptions,
): Promise<RunResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: options.cwd,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      env: { WRANGLER_SEND_METRICS: "false", ...options.env },
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { code: -1, stdout: "" };
    throw error;
  }
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const chunks: string[] = [];
  // "keep" collects standard output; "drop" discards (a captured run's standard error,
  // which may name the account too); "show" passes each line on.
  const pump = async (stream: ReadableStream<Uint8Array>, mode: "keep" | "drop" | "show") => {
    let rest = "";
    const decoder = new TextDecoder();
    for await (const bytes of stream) {
      const text = decoder.decode(bytes, { stream: true });
      if (mode === "keep") chunks.push(text);
      if (mode !== "show") continue;
      rest += text;
      const lines = rest.split(/\r?\n/);
      rest = lines.pop() ?? "";
      for (const line of lines) options.onLine?.(line);
    }
    if (mode === "show" && rest !== "") options.onLine?.(rest);
  };
  const captured = options.capture === true;
  await Promise.all([
    pump(child.stdout, captured ? "keep" : "show"),
    pump(child.stderr, captured ? "drop" : "show"),
  ]);
  const status = await child.status;
  return { code: status.code, stdout: options.capture ? chunks.join("") : "" };
}
