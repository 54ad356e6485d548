/**
 * Runs a child with a time limit and an output limit, as a tool's result needs: the
 * child is killed when its time is up or the turn is cancelled, and no more than the
 * limit of its output is kept (the rest is read and dropped, so a chatty child never
 * blocks on a full pipe nor fills the hub's memory).
 *
 * @module
 */

/** Options for {@linkcode runLimited}. */
export interface RunLimitedOptions {
  /** The child's whole environment. */
  env: Readonly<Record<string, string>>;
  /** @default the current folder */
  cwd?: string | undefined;
  /** Killed after this many milliseconds. */
  timeoutMs: number;
  /** Bytes kept of stdout and stderr together. */
  maxBytes: number;
  /** Kills the child when it aborts. */
  signal?: AbortSignal | undefined;
}

/** What a limited run produced. */
export interface LimitedRun {
  /** The exit code; `null` when it was killed. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Output past `maxBytes` was dropped. */
  truncated: boolean;
  /** Killed because its time was up. */
  timedOut: boolean;
  /** Milliseconds from start to exit. */
  ms: number;
}

/**
 * Runs `program` with `args` and no standard input; never throws for the child's own
 * failure (a missing program throws `Deno.errors.NotFound`).
 */
export async function runLimited(
  program: string,
  args: readonly string[],
  options: RunLimitedOptions,
): Promise<LimitedRun> {
  const started = performance.now();
  const child = new Deno.Command(program, {
    args: [...args],
    env: { ...options.env },
    clearEnv: true,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let timedOut = false;
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs);
  options.signal?.addEventListener("abort", kill, { once: true });
  let budget = options.maxBytes;
  let truncated = false;
  const keep = async (stream: ReadableStream<Uint8Array>): Promise<string> => {
    const parts: Uint8Array[] = [];
    for await (const chunk of stream) {
      if (budget <= 0) {
        truncated = true;
        continue;
      }
      const part = chunk.length > budget ? chunk.subarray(0, budget) : chunk;
      if (part.length < chunk.length) truncated = true;
      budget -= part.length;
      parts.push(part);
    }
    return new TextDecoder().decode(concat(parts));
  };
  try {
    const [stdout, stderr, status] = await Promise.all([
      keep(child.stdout),
      keep(child.stderr),
      child.status,
    ]);
    return {
      code: status.signal === null ? status.code : null,
      stdout,
      stderr,
      truncated,
      timedOut,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", kill);
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
