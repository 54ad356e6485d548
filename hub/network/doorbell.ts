/**
 * One doorbell connection (`GET /hub/ws` with the bearer token), from open to close:
 * pings every `pingMs`, counts the socket as dropped after `dropMs` without a frame,
 * rings on `hello` and `mail`, and runs the safety fetch timer while open.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";

/** Options for {@linkcode ringDoorbell}. */
export interface DoorbellOptions {
  /** `ws://` or `wss://` URL of `/hub/ws`. */
  url: string;
  /** The bearer token header. */
  headers: Record<string, string>;
  pingMs: number;
  dropMs: number;
  safetyFetchMs: number;
  /** Closes the socket. */
  signal: AbortSignal;
  /** Learns the HTTP status of a refused upgrade (a plain GET of `/hub/ws`). */
  probe(): Promise<number>;
  /** The socket opened. */
  onOpen(): void;
  /** `hello` or `mail` arrived (`counted`), or the safety timer fired. */
  onRing(counted: boolean): void;
}

/** How a connection ended. */
export interface DoorbellEnd {
  opened: boolean;
  /** How long it stayed open (0 when it never opened). */
  lastedMs: number;
  /** The HTTP status of a refused upgrade, when known. */
  status?: number;
  /** What went wrong, for `last_error` (undefined after a stop). */
  error?: string;
}

/** Opens the doorbell and resolves when it closes. */
export function ringDoorbell(options: DoorbellOptions): Promise<DoorbellEnd> {
  return new Promise((resolve) => {
    let opened = false;
    let openedAt = 0;
    let lastFrame = Date.now();
    let errorText: string | undefined;
    const timers: ReturnType<typeof setInterval>[] = [];
    let ws: WebSocket;
    try {
      // Deno's WebSocket takes headers (the DOM typings do not know it).
      const init = { headers: options.headers } as unknown as string[];
      ws = new WebSocket(options.url, init);
    } catch (error) {
      resolve({ opened: false, lastedMs: 0, error: errorMessage(error) });
      return;
    }
    const onStop = () => ws.close();
    options.signal.addEventListener("abort", onStop, { once: true });
    ws.onopen = () => {
      opened = true;
      openedAt = Date.now();
      lastFrame = openedAt;
      options.onOpen();
      timers.push(setInterval(() => {
        try {
          ws.send("ping");
        } catch { /* closing */ }
      }, options.pingMs));
      timers.push(setInterval(() => {
        if (Date.now() - lastFrame > options.dropMs) {
          errorText = `no frame for ${Math.round(options.dropMs / 1000)} s`;
          ws.close();
        }
      }, Math.max(10, Math.min(5000, options.dropMs / 5))));
      timers.push(setInterval(() => options.onRing(false), options.safetyFetchMs));
    };
    ws.onmessage = (event) => {
      lastFrame = Date.now();
      if (event.data === "pong") return;
      let message: { type?: unknown };
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === "hello" || message.type === "mail") options.onRing(true);
    };
    ws.onerror = (event) => {
      errorText = (event as ErrorEvent).message || "doorbell error";
    };
    ws.onclose = async (event) => {
      for (const timer of timers) clearInterval(timer);
      options.signal.removeEventListener("abort", onStop);
      const stopped = options.signal.aborted;
      if (opened) {
        const end: DoorbellEnd = { opened, lastedMs: Date.now() - openedAt };
        if (!stopped) end.error = errorText ?? `doorbell closed (${event.code})`;
        resolve(end);
        return;
      }
      // Deno names the status of a refused handshake in its error; else ask plainly.
      let status = statusIn(errorText);
      if (status === undefined && !stopped) status = await options.probe();
      const error = errorText === undefined
        ? `doorbell refused (HTTP ${status})`
        : `${errorText}${status ? ` (HTTP ${status})` : ""}`;
      resolve(status ? { opened, lastedMs: 0, status, error } : { opened, lastedMs: 0, error });
    };
  });
}

function statusIn(text: string | undefined): number | undefined {
  const match = text === undefined ? null : /\b(401|403|404|426|500|502|503)\b/.exec(text);
  return match === null ? undefined : Number(match[1]);
}
