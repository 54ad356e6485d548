/**
 * Shared helpers of the jobs' end-to-end tests: a priced fake `fast` role, a job file,
 * and the job store's rows read from outside the hub.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { freePort } from "../_port.ts";
import { stopHubProcess } from "../_hub_process.ts";
import { initHome } from "../_init_home.ts";

/** Test options of every hub-process test here. */
export const SLOW = { sanitizeOps: false, sanitizeResources: false };

/** Hourly, half an hour away from now: no slot is due while a test runs. */
export const HOURLY = `${(new Date().getUTCMinutes() + 30) % 60} * * * *`;

/** The fast role spends $0.002 a run: 1000 tokens in at $1/M, 500 out at $2/M. */
export const PRICED_FAST: [string | RegExp, string][] = [
  [
    'model_id = "fake-fast"\n',
    'model_id = "fake-fast"\nparams = { replies = ["Done."], usage = { input = 1000, output = 500 } }\n',
  ],
  [/$/, '\n[models.prices."fake-fast"]\ninput = 1.0\noutput = 2.0\n'],
];

/**
 * A home as `agent init --yes --provider fake` writes it, its hub on a free port and `edits`
 * made to its `agent.toml` (each `[from, to]` a replacement); the home and the port.
 */
export async function portHome(
  edits: readonly [string | RegExp, string][] = [],
): Promise<{ home: string; port: number }> {
  const home = await initHome();
  const port = freePort();
  let toml = await Deno.readTextFile(`${home}/agent.toml`);
  toml = toml.replace(/^port = \d+$/m, `port = ${port}`);
  for (const [from, to] of edits) toml = toml.replace(from, to);
  await Deno.writeTextFile(`${home}/agent.toml`, toml);
  return { home, port };
}

/** Stops a hub process (SIGTERM) and waits for it; one already gone is fine. */
export async function stopHub(child: Deno.ChildProcess): Promise<void> {
  await stopHubProcess(child);
}

/** Writes `persona/jobs/<name>.md` with `front` and the prompt `Report.`. */
export async function writeJob(home: string, name: string, front: string): Promise<void> {
  await Deno.mkdir(`${home}/persona/jobs`, { recursive: true });
  await Deno.writeTextFile(`${home}/persona/jobs/${name}.md`, `---\n${front}\n---\nReport.\n`);
}

/** One row of the job log. */
export type Row = {
  state: string;
  missed: number;
  slot_id: string;
  detail: string | null;
  usd: number;
  session_id: string | null;
};

/** What `sql` reads from `<home>/data/jobs.sqlite3` (read-only). */
export function query<T>(home: string, sql: string, ...args: (string | number)[]): T[] {
  const db = new DatabaseSync(`${home}/data/jobs.sqlite3`, { readOnly: true });
  try {
    return db.prepare(sql).all(...args) as unknown as T[];
  } finally {
    db.close();
  }
}

/** The job log of `job`, oldest slot first. */
export function rows(home: string, job: string): Row[] {
  return query<Row>(
    home,
    "SELECT state, missed, slot_id, detail, usd, session_id FROM runs WHERE job = ? ORDER BY slot_ms",
    job,
  );
}

/** The deliveries of `job`: slot, target, state, failed sends. */
export function deliveries(
  home: string,
  job: string,
): { slot_id: string; target: string; state: string; attempts: number }[] {
  return query(
    home,
    "SELECT slot_id, target, state, attempts FROM deliveries WHERE job = ? ORDER BY slot_id, target",
    job,
  );
}

/** The job answers among `texts`. */
export const results = (texts: string[], job: string) =>
  texts.filter((x) => x.startsWith(`Job ${job} (`));
