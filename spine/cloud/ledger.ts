/**
 * `POST|GET /hub/ledger`: the cloud ledger in the relational store (`DB`). The brain
 * appends each call's row (idempotent by `call_id`: a row sent twice is stored once)
 * and reads the rows back after a restart, so budgets survive the container. Rows
 * carry tokens and dollars, never any text.
 *
 * @module
 */
import { HttpError, json } from "@agent/net";
import { field, readObject } from "./body.ts";
import { type CloudRoutes, db as store } from "./stores.ts";

/** The most rows one append or one page of a listing holds. */
export const LEDGER_PAGE_MAX = 500;

const TEXT_MAX = 200;
const TOKENS = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"];
const COLUMNS = [
  "call_id",
  "ts",
  "role",
  "provider",
  "model_id",
  ...TOKENS,
  "usd",
  "estimated",
  "channel",
  "session_id",
  "peer",
];

type Cell = string | number | null;

function bad(detail: string): never {
  throw new HttpError(400, "bad_request", { detail });
}

function text(row: Record<string, unknown>, key: string, i: number, nullable = false): Cell {
  const value = row[key];
  if (nullable && (value === null || value === undefined)) return null;
  if (typeof value !== "string" || value === "" || value.length > TEXT_MAX) {
    bad(`rows[${i}].${key} must be a string of 1 to ${TEXT_MAX} characters`);
  }
  return value;
}

function whole(row: Record<string, unknown>, key: string, i: number): number {
  const value = row[key];
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    bad(`rows[${i}].${key} must be a whole number of 0 or more`);
  }
  return value;
}

/** One row as the table's cells, in {@linkcode COLUMNS} order; 400 naming the bad field. */
function cells(value: unknown, i: number): Cell[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    bad(`rows[${i}] must be an object`);
  }
  const row = value as Record<string, unknown>;
  const usd = row.usd;
  if (usd !== null && !(typeof usd === "number" && Number.isFinite(usd) && usd >= 0)) {
    bad(`rows[${i}].usd must be null or a number of 0 or more`);
  }
  const estimated = row.estimated;
  if (estimated !== undefined && typeof estimated !== "boolean") {
    bad(`rows[${i}].estimated must be true or false`);
  }
  return [
    text(row, "call_id", i),
    whole(row, "ts", i),
    text(row, "role", i),
    text(row, "provider", i),
    text(row, "model_id", i),
    ...TOKENS.map((k) => whole(row, k, i)),
    usd as number | null,
    estimated === true ? 1 : 0,
    text(row, "channel", i),
    text(row, "session_id", i, true),
    text(row, "peer", i, true),
  ];
}

/** Adds `POST|GET /hub/ledger` (the bearer token and cloud mode already checked). */
export function addLedgerRoutes(routes: CloudRoutes): CloudRoutes {
  return routes
    .post("/hub/ledger", async (request, { context }) => {
      const db = store(context.env);
      const rows = field(await readObject(request), "rows");
      if (!Array.isArray(rows) || rows.length === 0 || rows.length > LEDGER_PAGE_MAX) {
        bad(`'rows' must be a list of 1 to ${LEDGER_PAGE_MAX} rows`);
      }
      const insert = db.prepare(
        `INSERT INTO ledger (${COLUMNS.join(", ")}) VALUES (${
          COLUMNS.map((_, i) => `?${i + 1}`).join(", ")
        }) ON CONFLICT (call_id) DO NOTHING`,
      );
      const statements = (rows as unknown[]).map((row, i) => insert.bind(...cells(row, i)));
      const results = await db.batch(statements);
      let written = 0;
      for (const r of results) written += r.meta.changes ?? 0;
      return json({ written, duplicates: rows.length - written });
    })
    .on("GET", "/hub/ledger", async (_request, { url, context }) => {
      const db = store(context.env);
      const since = epochParam(url.searchParams, "since");
      const after = epochParam(url.searchParams, "after");
      const page = await db.prepare(
        `SELECT seq, ${COLUMNS.join(", ")} FROM ledger WHERE ts >= ?1 AND seq > ?2
         ORDER BY seq LIMIT ?3`,
      ).bind(since, after, LEDGER_PAGE_MAX).all<Record<string, Cell>>();
      const rows = page.results.map((found: Record<string, Cell>) => {
        const { seq: _seq, estimated, ...row } = found;
        return { ...row, estimated: estimated === 1 };
      });
      const last = page.results.at(-1)?.seq;
      return json({ rows, next: rows.length === LEDGER_PAGE_MAX ? last : null });
    });
}

/** An optional epoch-ms (or sequence) query parameter, 0 when absent; 400 otherwise. */
function epochParam(params: URLSearchParams, name: string): number {
  const values = params.getAll(name);
  if (values.length === 0) return 0;
  const value = values[0]!;
  if (values.length > 1 || !/^\d{1,15}$/.test(value)) {
    bad(`'${name}' must be a whole number`);
  }
  return Number(value);
}
