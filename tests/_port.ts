/**
 * A loopback port for a server a test starts later (a hub process whose `agent.toml`
 * names its port, a spine on workerd) or for an address nothing answers on.
 *
 * The port is checked free now (bound, then released), but nothing holds it until the
 * server binds it. Two things could take it meanwhile:
 * - The system, for anyone: a socket bound to port 0 and every outgoing connection get
 *   a port from the ephemeral range (32768 to 60999 on Linux, 49152 up elsewhere). A
 *   port the system picked was one of those, and a test once lost its port to a
 *   connection. So the ports come from below that range, 20000 to 32767, where the
 *   system hands out none.
 * - Another test file of the run, given the same one. Under `deno task test` the guard
 *   (`_tools/tmp_guard.ts`) names a folder in `AGENT_TEST_PORTS` where each port handed
 *   out is claimed with an atomic `mkdir`: a port already claimed in this run is never
 *   handed out again. Without that folder (one file run by hand) a port is only checked
 *   free.
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

/** The ports handed out: `LOW` to `HIGH - 1`, below every system's ephemeral range. */
const LOW = 20_000;
const HIGH = 32_768;

/**
 * A loopback port nothing listens on now, and that no other test of this run was
 * handed. Needs `--allow-net` (and `--allow-env`, `--allow-write` for the claim).
 */
export function freePort(options: FreePortOptions = {}): number {
  const claims = options.claims ?? Deno.env.get(PORTS_ENV);
  for (let attempt = 0;; attempt++) {
    if (attempt >= 200) throw new Error(`No free port from ${LOW} to ${HIGH - 1}`);
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
    } catch (error) {
      if (error instanceof Deno.errors.AddrInUse) continue;
      throw error;
    }
    if (claims === undefined || claims === "") return port;
    try {
      Deno.mkdirSync(`${claims}/${port}`);
      return port;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
}

/**
 * Starts a server on `named`, or else on a port from {@linkcode freePort}. A port picked
 * free can still be taken before the server binds it, by a program outside the run:
 * then another is picked, up to three in all. A port the caller named is never swapped.
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
