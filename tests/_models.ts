/**
 * Shared pieces of the model tests (the router's and the agent's, beside the code, and
 * `tests/models/`): a config from TOML, a ledger in a temp dir
 * and a reader for its rows, a logger writing to a file.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { parseConfig } from "@agent/hub";
import type { AgentConfig } from "@agent/hub/config";
import { Logger } from "@agent/hub/base";
import { Ledger } from "@agent/hub/money";

/** Prices every test model is listed at: input 3, output 15, cache read 0.3, cache write 3.75. */
export const TEST_PRICE = `input = 3.0
output = 15.0
cache_read = 0.3
cache_write = 3.75
`;

/** Parses `toml` with the real loader. */
export function config(toml: string): AgentConfig {
  return parseConfig(toml, "agent.toml");
}

/** A fresh temp dir with a ledger, a log file and a reader for both. */
export function workspace(): {
  dir: string;
  ledger: Ledger;
  logFile: string;
  logger: Logger;
  rows(): Record<string, unknown>[];
  log(): string;
  close(): void;
} {
  const dir = Deno.makeTempDirSync({ prefix: "agent-models-" });
  const ledger = Ledger.open(`${dir}/spend.sqlite3`);
  const logFile = `${dir}/logs/agent.log`;
  return {
    dir,
    ledger,
    logFile,
    logger: new Logger({ file: logFile, stderr: "off" }),
    rows() {
      const db = new DatabaseSync(`${dir}/spend.sqlite3`, { readOnly: true });
      try {
        return db.prepare("SELECT * FROM calls ORDER BY id").all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    log() {
      try {
        return Deno.readTextFileSync(logFile);
      } catch {
        return "";
      }
    },
    close() {
      ledger.close();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

/**
 * A loopback listener that never accepts, with its backlog filled, so a new
 * connection attempt gets no answer at all (the kernel drops its SYN): the closest
 * loopback stand-in for a sleeping host.
 */
export async function silentHost(): Promise<{ port: number; close(): void }> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < 8192; i++) {
    const conn = await Promise.race([
      Deno.connect({ hostname: "127.0.0.1", port }),
      new Promise<null>((r) => setTimeout(() => r(null), 150)),
    ]);
    if (conn === null) break;
    conns.push(conn);
  }
  return {
    port,
    close() {
      for (const c of conns) c.close();
      listener.close();
    },
  };
}
