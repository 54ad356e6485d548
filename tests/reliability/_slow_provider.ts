/**
 * A loopback vendor-b (OpenAI Chat Completions) server that streams its answer slowly:
 * `words` words, `wordMs` apart, then the usage chunk (`prompt_tokens` 40,
 * `completion_tokens` = words) and `[DONE]`. A client that goes away mid-answer just
 * stops the stream; with `dropAfter` the connection is cut after that many words.
 * Counts the requests it received, and tells when one has arrived.
 *
 * @module
 */

/** A running slow provider. */
export interface SlowProvider {
  /** The base URL to put in `params.base_url` (ends in `/v1`). */
  base: string;
  /** Requests received so far. */
  readonly requests: number;
  /** Resolves once a request whose body contains `marker` has arrived. */
  received(marker: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export function startSlowProvider(
  options: { words: number; wordMs: number; dropAfter?: number },
): SlowProvider {
  let requests = 0;
  const bodies: string[] = [];
  const waiters: { marker: string; resolve: () => void }[] = [];
  const encoder = new TextEncoder();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    requests++;
    const text = await req.text();
    bodies.push(text);
    for (const w of waiters.filter((w) => text.includes(w.marker))) w.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let i = 0;
    const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      encoder.encode(
        `data: ${
          JSON.stringify({
            id: "c1",
            object: "chat.completion.chunk",
            created: 0,
            model: "slow-1",
            choices: [{ index: 0, delta, finish_reason: null }],
            ...extra,
          })
        }\n\n`,
      );
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk({ role: "assistant", content: "" }));
        const step = () => {
          try {
            write();
          } catch {
            // The client went away: the answer stops here.
          }
        };
        const write = () => {
          // The connection is lost mid-answer: no finish, no usage.
          if (options.dropAfter !== undefined && i === options.dropAfter) {
            controller.error(new Error("connection lost"));
            return;
          }
          if (i < options.words) {
            controller.enqueue(chunk({ content: `word${i} ` }));
            i++;
            timer = setTimeout(step, options.wordMs);
            return;
          }
          controller.enqueue(encoder.encode(`data: ${
            JSON.stringify({
              id: "c1",
              object: "chat.completion.chunk",
              created: 0,
              model: "slow-1",
              choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
            })
          }\n\n`));
          controller.enqueue(encoder.encode(`data: ${
            JSON.stringify({
              id: "c1",
              object: "chat.completion.chunk",
              created: 0,
              model: "slow-1",
              choices: [],
              usage: {
                prompt_tokens: 40,
                completion_tokens: options.words,
                total_tokens: 40 + options.words,
              },
            })
          }\n\n`));
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        };
        timer = setTimeout(step, options.wordMs);
      },
      cancel() {
        clearTimeout(timer);
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const port = (server.addr as Deno.NetAddr).port;
  return {
    base: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    received(marker) {
      if (bodies.some((b) => b.includes(marker))) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ marker, resolve }));
    },
    async close() {
      await server.shutdown();
    },
  };
}
