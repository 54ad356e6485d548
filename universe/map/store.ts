/**
 * The map's own index inside the directory object: each agent's position, cells and
 * folded search text (`map_agents`), and the count of agents per overview cell
 * (`map_cells`). The directory calls {@linkcode indexMapAgent} after every accepted write
 * and {@linkcode pruneMapIndex} after the cron removes agents; everything else here
 * only reads. Kept apart from the directory's own tables so either can change alone.
 *
 * @module
 */
import type { SqlStorage } from "@cloudflare/workers-types/index.ts";
import { cellOf, cellX, cellY, MAP_FINE, MAP_GRID, type MapPoint, positionOf } from "../layout.ts";
import { arrangeLinked } from "./arrange.ts";
import { foldText, lineOf } from "./text.ts";

/** The map index's schema version, kept in `meta` as `map_schema_version`. */
export const MAP_SCHEMA_VERSION = 1;

/** Most agents one area answer holds. */
export const MAP_AREA_CAP = 5000;

/** Most agents one search answer holds. */
export const MAP_SEARCH_LIMIT = 20;

/** "Online" means seen within this window (seconds), as in the snapshot. */
const ONLINE_SECONDS = 2 * 3_600;

type Row = Record<string, unknown>;

const ready = new WeakSet<SqlStorage>();

function rows(sql: SqlStorage, query: string, ...params: unknown[]): Row[] {
  return sql.exec(query, ...params).toArray() as Row[];
}

/** Creates the map tables once and fills them from the agents already listed. */
export function ensureMapIndex(sql: SqlStorage): void {
  if (ready.has(sql)) return;
  const version = Number(
    rows(sql, "SELECT value FROM meta WHERE key = 'map_schema_version'")[0]?.value ?? 0,
  );
  if (version < MAP_SCHEMA_VERSION) {
    sql.exec(`
      CREATE TABLE IF NOT EXISTS map_agents (
        address TEXT PRIMARY KEY, x REAL NOT NULL, y REAL NOT NULL,
        gx INTEGER NOT NULL, gy INTEGER NOT NULL, cell INTEGER NOT NULL, fold TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS map_agents_fine ON map_agents (gx, gy);
      CREATE TABLE IF NOT EXISTS map_cells (cell INTEGER PRIMARY KEY, n INTEGER NOT NULL);
      DELETE FROM map_agents;
      DELETE FROM map_cells;
    `);
    for (const row of rows(sql, "SELECT address, name, owner, about FROM agents")) {
      insert(sql, row);
    }
    sql.exec(
      "INSERT OR REPLACE INTO meta (key, value) VALUES ('map_schema_version', ?)",
      MAP_SCHEMA_VERSION,
    );
  }
  ready.add(sql);
}

function foldOf(row: Row): string {
  return foldText(`${row.name} ${row.owner} ${row.about} ${row.address}`);
}

function insert(sql: SqlStorage, row: Row): void {
  const address = String(row.address);
  const p = positionOf(address);
  const cell = cellOf(p);
  sql.exec(
    "INSERT INTO map_agents (address, x, y, gx, gy, cell, fold) VALUES (?, ?, ?, ?, ?, ?, ?)",
    address,
    p.x,
    p.y,
    cellX(p.x, MAP_FINE),
    cellY(p.y, MAP_FINE),
    cell,
    foldOf(row),
  );
  sql.exec(
    "INSERT INTO map_cells (cell, n) VALUES (?, 1) ON CONFLICT (cell) DO UPDATE SET n = n + 1",
    cell,
  );
}

/**
 * The hook the directory calls after it applied a write for `address`: the agent's map
 * row follows its directory row (added, its search text renewed, or removed). O(1).
 */
export function indexMapAgent(sql: SqlStorage, address: string): void {
  ensureMapIndex(sql);
  const agent =
    rows(sql, "SELECT address, name, owner, about FROM agents WHERE address = ?", address)[0];
  const old = rows(sql, "SELECT cell, fold FROM map_agents WHERE address = ?", address)[0];
  if (agent === undefined) {
    if (old === undefined) return;
    sql.exec("DELETE FROM map_agents WHERE address = ?", address);
    sql.exec("UPDATE map_cells SET n = n - 1 WHERE cell = ?", old.cell);
    return;
  }
  if (old === undefined) insert(sql, agent);
  else if (old.fold !== foldOf(agent)) {
    sql.exec("UPDATE map_agents SET fold = ? WHERE address = ?", foldOf(agent), address);
  }
}

/**
 * Beyond this many mutual links the layout is not run (it holds every linked address in
 * memory at once): places stay as they are, and the page draws long links on demand.
 */
export const MAP_ARRANGE_MAX_LINKS = 250_000;

/**
 * Lays the linked agents out near their peers (`arrange.ts`) and the others at their
 * hashed places, moving only the rows whose place changed; cell counts are recounted.
 * Run with the snapshot's build (at most once a minute, after writes), so a newcomer
 * sits at its hashed place until then. Returns how many agents moved.
 */
export function arrangeMapIndex(sql: SqlStorage): number {
  ensureMapIndex(sql);
  const mutual = `FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a WHERE l1.a < l1.b`;
  // Counted only up to the limit: a full count of a million agents' links held the
  // Directory for seconds at every build, and reports waited behind it (p99 1 s).
  const over = rows(
    sql,
    `SELECT COUNT(*) AS n FROM (SELECT 1 ${mutual} LIMIT ${MAP_ARRANGE_MAX_LINKS + 1})`,
  )[0];
  if (Number(over?.n ?? 0) > MAP_ARRANGE_MAX_LINKS) return 0;
  const places = arrangeLinked(
    rows(sql, `SELECT l1.a AS a, l1.b AS b ${mutual}`).map((r) =>
      [String(r.a), String(r.b)] as const
    ),
  );
  const moves: [string, MapPoint][] = [];
  // A cursor, not an array: a million rows need not be held at once.
  for (const row of sql.exec("SELECT address, x, y FROM map_agents")) {
    const address = String(row.address);
    const p = places.get(address) ?? positionOf(address);
    if (p.x !== Number(row.x) || p.y !== Number(row.y)) moves.push([address, p]);
  }
  for (const [address, p] of moves) {
    sql.exec(
      "UPDATE map_agents SET x = ?, y = ?, gx = ?, gy = ?, cell = ? WHERE address = ?",
      p.x,
      p.y,
      cellX(p.x, MAP_FINE),
      cellY(p.y, MAP_FINE),
      cellOf(p),
      address,
    );
  }
  if (moves.length > 0) recountCells(sql);
  return moves.length;
}

function recountCells(sql: SqlStorage): void {
  sql.exec(`
    DELETE FROM map_cells;
    INSERT INTO map_cells (cell, n) SELECT cell, COUNT(*) FROM map_agents GROUP BY cell;
  `);
}

/** The places of `address` and of its mutual-link peers, as the map index holds them. */
export function mapPlaces(
  sql: SqlStorage,
  address: string,
): { x: number; y: number; peers: Record<string, [number, number]> } | undefined {
  ensureMapIndex(sql);
  const own = rows(sql, "SELECT x, y FROM map_agents WHERE address = ?", address)[0];
  if (own === undefined) return undefined;
  const peers: Record<string, [number, number]> = {};
  for (
    const r of rows(
      sql,
      `SELECT m.address AS address, m.x AS x, m.y AS y
       FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a
       JOIN map_agents m ON m.address = l1.b WHERE l1.a = ?`,
      address,
    )
  ) peers[String(r.address)] = [Number(r.x), Number(r.y)];
  return { x: Number(own.x), y: Number(own.y), peers };
}

/** After the cron removed agents: their map rows go and the cell counts are recounted. */
export function pruneMapIndex(sql: SqlStorage): void {
  ensureMapIndex(sql);
  sql.exec("DELETE FROM map_agents WHERE address NOT IN (SELECT address FROM agents)");
  recountCells(sql);
}

/** `GET /api/map/overview`'s body. */
export interface MapOverview {
  grid: number;
  taus: number;
  online: number;
  links: number;
  messages: number;
  /** Pairs flattened: cell index (row-major), agents in it; empty cells left out. */
  cells: number[];
}

const overviews = new WeakMap<SqlStorage, { at: number; body: MapOverview }>();

/**
 * The agents per cell of the {@linkcode MAP_GRID} grid and the universe's figures. The
 * figures count mutual links, which costs a pass over them: kept for 60 seconds.
 */
export function mapOverview(sql: SqlStorage, now: number): MapOverview {
  ensureMapIndex(sql);
  const cached = overviews.get(sql);
  const cells = rows(sql, "SELECT cell, n FROM map_cells WHERE n > 0 ORDER BY cell")
    .flatMap((r) => [Number(r.cell), Number(r.n)]);
  let taus = 0;
  for (let i = 1; i < cells.length; i += 2) taus += cells[i]!;
  if (cached && now - cached.at < 60 && cached.body.taus === taus) {
    return { ...cached.body, cells };
  }
  const online = Number(
    rows(sql, "SELECT COUNT(*) AS n FROM agents WHERE last_seen >= ?", now - ONLINE_SECONDS)[0]
      ?.n ?? 0,
  );
  const links = rows(
    sql,
    `SELECT COUNT(*) AS n, TOTAL(MIN(l1.messages, l2.messages)) AS m
     FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a WHERE l1.a < l1.b`,
  )[0];
  const body = {
    grid: MAP_GRID,
    taus,
    online,
    links: Number(links?.n ?? 0),
    messages: Number(links?.m ?? 0),
    cells,
  };
  overviews.set(sql, { at: now, body });
  return body;
}

/** A rectangle of the unit square. */
export interface MapRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One agent as the map draws it. */
export interface MapAgent {
  address: string;
  name: string;
  x: number;
  y: number;
  online: boolean;
}

/** `GET /api/map/area`'s body. */
export interface MapArea {
  agents: MapAgent[];
  /** Mutual links with both ends in `agents`: a, b (indexes into `agents`), messages. */
  links: number[];
  /** More agents lie in the rectangle than `agents` holds. */
  truncated: boolean;
}

/** The agents inside `rect` (at most `cap`) and the mutual links between them. */
export function mapArea(sql: SqlStorage, rect: MapRect, now: number, cap: number): MapArea {
  ensureMapIndex(sql);
  const found = rows(
    sql,
    `SELECT m.address AS address, m.x AS x, m.y AS y, a.name AS name, a.last_seen AS seen
     FROM map_agents m JOIN agents a ON a.address = m.address
     WHERE m.gx BETWEEN ? AND ? AND m.gy BETWEEN ? AND ?
       AND m.x BETWEEN ? AND ? AND m.y BETWEEN ? AND ?
     LIMIT ?`,
    cellX(rect.x0, MAP_FINE),
    cellX(rect.x1, MAP_FINE),
    cellY(rect.y0, MAP_FINE),
    cellY(rect.y1, MAP_FINE),
    rect.x0,
    rect.x1,
    rect.y0,
    rect.y1,
    cap + 1,
  );
  const truncated = found.length > cap;
  const agents = found.slice(0, cap).map((r) => ({
    address: String(r.address),
    name: lineOf(String(r.name)),
    x: Number(r.x),
    y: Number(r.y),
    online: now - Number(r.seen) <= ONLINE_SECONDS,
  }));
  const index = new Map(agents.map((a, i) => [a.address, i]));
  const links: number[] = [];
  for (let start = 0; start < agents.length; start += 500) {
    const chunk = JSON.stringify(agents.slice(start, start + 500).map((a) => a.address));
    for (
      const r of rows(
        sql,
        `SELECT l1.a AS a, l1.b AS b, MIN(l1.messages, l2.messages) AS m
         FROM links l1 JOIN links l2 ON l2.a = l1.b AND l2.b = l1.a
         WHERE l1.a IN (SELECT value FROM json_each(?)) AND l1.a < l1.b`,
        chunk,
      )
    ) {
      const b = index.get(String(r.b));
      if (b !== undefined) links.push(index.get(String(r.a))!, b, Number(r.m));
    }
  }
  return { agents, links, truncated };
}

/** One search result. */
export interface MapHit extends MapAgent {
  owner: string;
  about: string;
}

/**
 * Agents whose name, owner, about or address holds `query` once both are folded
 * (case, diacritics, Turkish i): earlier matches first, at most {@linkcode MAP_SEARCH_LIMIT}.
 * A substring test with `instr()`, not `LIKE`: the edge's SQLite refuses a `LIKE`
 * pattern longer than 50 bytes, well under the 100 characters a query may have (and
 * folding can make it longer still), and `instr()` needs no escaping of `%` and `_`.
 */
export function mapSearch(sql: SqlStorage, query: string, now: number): MapHit[] {
  ensureMapIndex(sql);
  const q = foldText(query);
  if (q === "") return [];
  return rows(
    sql,
    `SELECT m.address AS address, m.x AS x, m.y AS y, a.name AS name, a.owner AS owner,
       a.about AS about, a.last_seen AS seen, instr(m.fold, ?) AS at
     FROM map_agents m JOIN agents a ON a.address = m.address
     WHERE at > 0
     ORDER BY at, a.name, m.address LIMIT ?`,
    q,
    MAP_SEARCH_LIMIT,
  ).map((r) => ({
    address: String(r.address),
    name: lineOf(String(r.name)),
    owner: lineOf(String(r.owner)),
    about: lineOf(String(r.about)),
    x: Number(r.x),
    y: Number(r.y),
    online: now - Number(r.seen) <= ONLINE_SECONDS,
  }));
}
