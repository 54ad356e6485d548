/**
 * A loopback proxy in front of a spine that can refuse, cut or silence the doorbell
 * (`/hub/ws`) while passing every HTTP request through: for the link rules of the
 * hub's network service.
 *
 * @module
 */

/** What the proxy does with a doorbell upgrade. */
export type DoorbellMode =
  | "pass"
  /** 404 `{error: not_found}` */
  | 404
  /** 426 `{error: upgrade_required}` */
  | 426
  /** accept the upgrade, then close at once */
  | "cut"
  /** accept and pass nothing from the spine (no hello, no mail, no pong) */
  | "silent";

/** A running proxy. */
export interface SpineProxy {
  url: string;
  mode: DoorbellMode;
  /** Upgrades seen. */
  upgrades: number;
  /** Doorbells passed through and open now. */
  open(): number;
  /** Cuts every open doorbell (both sides closed); returns how many there were. */
  cut(): number;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (a spine's base URL). */
export function startSpineProxy(target: string, mode: DoorbellMode): SpineProxy {
  const sockets = new Set<WebSocket>();
  const live = new Set<{ socket: WebSocket; upstream: WebSocket }>();
  const proxy: SpineProxy = {
    url: "",
    mode,
    upgrades: 0,
    open: () =>
      [...live].filter((p) =>
        p.socket.readyState === WebSocket.OPEN && p.upstream.readyState === WebSocket.OPEN
      ).length,
    cut() {
      let n = 0;
      for (const pair of live) {
        if (pair.socket.readyState === WebSocket.OPEN) n++;
        for (const s of [pair.socket, pair.upstream]) {
          try {
            s.close(1011, "cut");
          } catch { /* closed */ }
        }
      }
      live.clear();
      return n;
    },
    close: async () => {
      for (const s of sockets) {
        try {
          s.close();
        } catch { /* closed */ }
      }
      await server.shutdown();
    },
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/hub/ws" && req.headers.get("upgrade")?.toLowerCase() === "websocket") {
      proxy.upgrades++;
      const m = proxy.mode;
      if (m === 404) return Response.json({ error: "not_found" }, { status: 404 });
      if (m === 426) {
        return Response.json({ error: "upgrade_required" }, {
          status: 426,
          headers: { upgrade: "websocket" },
        });
      }
      const authorization = req.headers.get("authorization") ?? "";
      const { socket, response } = Deno.upgradeWebSocket(req);
      sockets.add(socket);
      if (m === "cut") {
        socket.onopen = () => socket.close(1011, "cut");
        return response;
      }
      const init = { headers: { authorization } };
      const upstream = new WebSocket(
        `${target.replace(/^http/, "ws")}/hub/ws`,
        init as unknown as string[],
      );
      sockets.add(upstream);
      const pair = { socket, upstream };
      live.add(pair);
      upstream.onmessage = (e) => {
        if (m !== "silent" && socket.readyState === WebSocket.OPEN) socket.send(e.data);
      };
      socket.onmessage = (e) => {
        if (upstream.readyState === WebSocket.OPEN) upstream.send(e.data);
      };
      upstream.onclose = () => {
        live.delete(pair);
        if (socket.readyState === WebSocket.OPEN) socket.close();
      };
      socket.onclose = () => {
        live.delete(pair);
        if (upstream.readyState === WebSocket.OPEN) upstream.close();
      };
      return response;
    }
    const headers = new Headers(req.headers);
    headers.delete("host");
    headers.delete("accept-encoding");
    const res = await fetch(`${target}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body: req.body,
    });
    // fetch already decoded the body.
    const out = new Headers(res.headers);
    out.delete("content-encoding");
    out.delete("content-length");
    return new Response(res.body, { status: res.status, headers: out });
  });
  proxy.url = `http://127.0.0.1:${server.addr.port}`;
  return proxy;
}
