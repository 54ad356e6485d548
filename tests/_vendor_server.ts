/**
 * A loopback server speaking each provider's real wire format, for tests:
 * - vendor-a: Anthropic Messages (`POST /v1/messages`, SSE events with cache usage),
 * - vendor-b and local-runtime: OpenAI Chat Completions (`POST /v1/chat/completions`,
 *   SSE chunks, usage with `prompt_tokens_details.cached_tokens`), and Ollama's
 *   `GET /api/tags`,
 * - vendor-c: Gemini (`POST /v1beta/models/<m>:streamGenerateContent?alt=sse`),
 * - vendor-d: Bedrock ConverseStream (`POST /model/<m>/converse-stream`, binary
 *   event stream).
 *
 * Each request takes the next scripted behaviour (an HTTP error, a step with thinking
 * and several tool calls at once from `_vendor_steps.ts`, or the default answer).
 *
 * @module
 */
import { converseEvent } from "./_event_stream.ts";
import {
  anthropicStep,
  bedrockStep,
  geminiStep,
  openaiStep,
  type StepScript,
} from "./_vendor_steps.ts";

export type { ScriptedCall, StepScript } from "./_vendor_steps.ts";

/** A recorded request. */
export interface Recorded {
  method: string;
  path: string;
  search: string;
  headers: Headers;
  body: Record<string, unknown> | undefined;
}

/** What the server does with the next request. */
export type Behaviour =
  | "ok"
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number }
  /** vendor-a: a 200 stream that sends one text piece, then an `overloaded_error` event. */
  | { midStreamError: true }
  /** A streamed answer with thinking, text and tool calls, in the vendor's format. */
  | { step: StepScript };

/** Options for {@linkcode startVendorServer}. */
export interface VendorServerOptions {
  /** The text every answer streams. @default "Hello there." */
  reply?: string;
  /** Models `/api/tags` lists. @default ["llama3.2:latest"] */
  pulled?: string[];
  /**
   * How many of the 200 cache writes were 1-hour writes. When set, vendor-a's usage
   * carries `cache_creation` (5m and 1h apart) and vendor-d's `cacheDetails`, as the
   * real services report them. @default no split reported
   */
  cacheWrite1h?: number;
  /** Told of each request with its body's size in bytes, instead of keeping it in `requests`. */
  onRequest?: (request: Recorded, bytes: number) => void;
}

/** A running vendor server. */
export interface VendorServer {
  url: string;
  port: number;
  requests: Recorded[];
  /** Behaviours for the next requests, in order; then "ok". */
  script: Behaviour[];
  close(): Promise<void>;
}

/** The usage each vendor reports for an answer (see the per-vendor comments). */
export const USAGE = {
  /** Anthropic: input apart from cache. Totals: 100 plain, 1000 read, 200 written, 50 out. */
  anthropic: {
    input_tokens: 100,
    cache_read_input_tokens: 1000,
    cache_creation_input_tokens: 200,
    output_tokens: 50,
  },
  /** OpenAI: cached inside prompt tokens. Totals: 100 plain, 1000 read, 50 out. */
  openai: { prompt_tokens: 1100, completion_tokens: 50, cached: 1000 },
  /** Gemini: cached inside prompt tokens. Totals: 100 plain, 1000 read, 50 out. */
  gemini: { promptTokenCount: 1100, candidatesTokenCount: 50, cachedContentTokenCount: 1000 },
  /** Bedrock: cache apart from input. Totals: 100 plain, 1000 read, 200 written, 50 out. */
  bedrock: {
    inputTokens: 100,
    outputTokens: 50,
    cacheReadInputTokens: 1000,
    cacheWriteInputTokens: 200,
  },
} as const;

/** Starts the server on 127.0.0.1 with a free port. */
export function startVendorServer(options: VendorServerOptions = {}): VendorServer {
  const reply = options.reply ?? "Hello there.";
  const pulled = options.pulled ?? ["llama3.2:latest"];
  const requests: Recorded[] = [];
  const script: Behaviour[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = req.method === "POST" ? await req.text() : "";
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const recorded = {
      method: req.method,
      path: url.pathname,
      search: url.search,
      headers: req.headers,
      body,
    };
    if (options.onRequest) options.onRequest(recorded, new TextEncoder().encode(text).length);
    else requests.push(recorded);
    if (req.method === "GET" && url.pathname === "/api/tags") {
      return Response.json({
        models: pulled.map((name) => ({ name, model: name, size: 1, digest: "sha256:0" })),
      });
    }
    const next = script.shift() ?? "ok";
    if (next !== "ok" && "delayMs" in next) await new Promise((r) => setTimeout(r, next.delayMs));
    else if (next !== "ok" && "midStreamError" in next) return anthropicBroken(body);
    else if (next !== "ok" && "step" in next) {
      const model = String(body?.model ?? "m");
      if (url.pathname === "/v1/messages") return anthropicStep(next.step, model, USAGE);
      if (url.pathname === "/v1/chat/completions") return openaiStep(next.step, model, USAGE);
      if (url.pathname.startsWith("/v1beta/models/")) return geminiStep(next.step, url, USAGE);
      return bedrockStep(next.step, USAGE);
    } else if (next !== "ok") {
      return new Response(JSON.stringify(next.body ?? { error: { message: "scripted" } }), {
        status: next.status,
        headers: { "content-type": "application/json", ...(next.headers ?? {}) },
      });
    }
    const pieces = [
      reply.slice(0, Math.ceil(reply.length / 2)),
      reply.slice(Math.ceil(reply.length / 2)),
    ];
    if (url.pathname === "/v1/messages") return anthropic(pieces, body, options.cacheWrite1h);
    if (url.pathname === "/v1/chat/completions") return openai(pieces, body);
    if (url.pathname.startsWith("/v1beta/models/")) return gemini(pieces, url);
    if (url.pathname.startsWith("/model/")) return bedrock(pieces, url, options.cacheWrite1h);
    return Response.json({ error: { message: `no route ${url.pathname}` } }, { status: 404 });
  });
  const port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script,
    close: () => server.shutdown(),
  };
}

function sse(events: string[]): Response {
  return new Response(events.join(""), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

function anthropic(
  pieces: string[],
  body: Record<string, unknown> | undefined,
  cacheWrite1h: number | undefined,
): Response {
  const u = cacheWrite1h === undefined ? USAGE.anthropic : {
    ...USAGE.anthropic,
    cache_creation: {
      ephemeral_5m_input_tokens: USAGE.anthropic.cache_creation_input_tokens - cacheWrite1h,
      ephemeral_1h_input_tokens: cacheWrite1h,
    },
  };
  const model = String(body?.model ?? "m");
  const ev = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  if (body?.stream !== true) {
    return Response.json({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text: pieces.join("") }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: u,
    });
  }
  return sse([
    ev("message_start", {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...u, output_tokens: 1 },
      },
    }),
    ev("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }),
    ev("ping", { type: "ping" }),
    ...pieces.map((text) =>
      ev("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text },
      })
    ),
    ev("content_block_stop", { type: "content_block_stop", index: 0 }),
    ev("message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: u.output_tokens },
    }),
    ev("message_stop", { type: "message_stop" }),
  ]);
}

function anthropicBroken(body: Record<string, unknown> | undefined): Response {
  const ev = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  return sse([
    ev("message_start", {
      type: "message_start",
      message: {
        id: "msg_2",
        type: "message",
        role: "assistant",
        model: String(body?.model ?? "m"),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    ev("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }),
    ev("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: "Partial" },
    }),
    ev("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
  ]);
}

function openai(pieces: string[], body: Record<string, unknown> | undefined): Response {
  const u = USAGE.openai;
  const model = String(body?.model ?? "m");
  const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model };
  const usage = {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    total_tokens: u.prompt_tokens + u.completion_tokens,
    prompt_tokens_details: { cached_tokens: u.cached },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
  if (body?.stream !== true) {
    return Response.json({
      ...base,
      object: "chat.completion",
      choices: [{
        index: 0,
        message: { role: "assistant", content: pieces.join("") },
        finish_reason: "stop",
      }],
      usage,
    });
  }
  const data = (d: unknown) => `data: ${JSON.stringify(d)}\n\n`;
  return sse([
    data({
      ...base,
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
    }),
    ...pieces.map((content) =>
      data({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] })
    ),
    data({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
    data({ ...base, choices: [], usage }),
    "data: [DONE]\n\n",
  ]);
}

function gemini(pieces: string[], url: URL): Response {
  const u = USAGE.gemini;
  const usageMetadata = { ...u, totalTokenCount: u.promptTokenCount + u.candidatesTokenCount };
  const chunk = (text: string, last: boolean) => ({
    candidates: [{
      content: { parts: [{ text }], role: "model" },
      ...(last ? { finishReason: "STOP" } : {}),
      index: 0,
    }],
    ...(last ? { usageMetadata } : {}),
    modelVersion: url.pathname.split("/").pop()?.split(":")[0],
  });
  if (!url.pathname.endsWith(":streamGenerateContent")) {
    return Response.json(chunk(pieces.join(""), true));
  }
  return sse(
    pieces.map((p, i) => `data: ${JSON.stringify(chunk(p, i === pieces.length - 1))}\r\n\r\n`),
  );
}

function bedrock(pieces: string[], url: URL, cacheWrite1h: number | undefined): Response {
  const u = USAGE.bedrock;
  const usage = {
    ...u,
    totalTokens: u.inputTokens + u.cacheReadInputTokens + u.cacheWriteInputTokens + u.outputTokens,
    ...(cacheWrite1h === undefined ? {} : {
      cacheDetails: [
        { ttl: "5m", inputTokens: u.cacheWriteInputTokens - cacheWrite1h },
        { ttl: "1h", inputTokens: cacheWrite1h },
      ],
    }),
  };
  if (!url.pathname.endsWith("/converse-stream")) {
    return Response.json({
      output: { message: { role: "assistant", content: [{ text: pieces.join("") }] } },
      stopReason: "end_turn",
      usage,
      metrics: { latencyMs: 10 },
    });
  }
  const frames = [
    converseEvent("messageStart", { role: "assistant" }),
    ...pieces.map((text) =>
      converseEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text } })
    ),
    converseEvent("contentBlockStop", { contentBlockIndex: 0 }),
    converseEvent("messageStop", { stopReason: "end_turn" }),
    converseEvent("metadata", { usage, metrics: { latencyMs: 10 } }),
  ];
  const total = frames.reduce((s, f) => s + f.length, 0);
  const bytes = new Uint8Array(total);
  let o = 0;
  for (const f of frames) {
    bytes.set(f, o);
    o += f.length;
  }
  return new Response(bytes, { headers: { "content-type": "application/vnd.amazon.eventstream" } });
}
