/**
 * A loopback port for a server a test starts later (a hub process whose `agent.toml`
 * names its port, a spine on workerd) or for an address nothing answers on.
 *
 * The port comes from the system (bind to port 0, then release it), so it is free now;
 * but until the server binds it, another test file running side by side
 * (`deno test --parallel`) could be handed the same one. Under `deno task test` the
 * guard (`_tools/tmp_guard.ts`) names a folder in `AGENT_TEST_PORTS` where each port
 * handed out is claimed with an atomic `mkdir`: a port already claimed in this run is
 * never handed out again. Without that folder (one file run by hand) a port is only
 * checked free.
 *
 * @module
 */

/** The variable naming the folder where handed-out ports are claimed. */
export const PORTS_ENV = "AGENT_TEST_PORTS";

/** Options for {@linkcode freePort}. */
export interface FreePortOptions {
  /** The folder where ports are claimed. @default `$AGENT_TEST_PORTS`, or none */
  claims?: string;
}

/**
 * A loopback port nothing listens on now, and that no other test of this run was
 * handed. Needs `--allow-net` (and `--allow-env`, `--allow-write` for the claim).
 */
export function freePort(options: FreePortOptions = {}): number {
  const claims = options.claims ?? Deno.env.get(PORTS_ENV);
  for (let attempt = 0;; attempt++) {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    if (claims === undefined || claims === "") return port;
    try {
      Deno.mkdirSync(`${claims}/${port}`);
      return port;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists) || attempt >= 50) throw error;
    }
  }
}

/**
 * Starts a server on `named`, or else on a port from {@linkcode freePort}. A port picked
 * free can still be taken before the server binds it (by a file running beside this
 * one, or by any outgoing connection, which draws from the same range): then another is
 * picked, up to three in all. A port the caller named is never swapped.
 */
export async function onFreePort<T>(
  named: number | undefined,
  start: (port: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await start(named || freePort());
    } catch (error) {
      const taken = /ERR_ADDRESS_IN_USE|Address already in use|AddrInUse/.test(String(error));
      if (named || !taken || attempt >= 3) throw error;
    }
  }
}
