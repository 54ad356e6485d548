/**
 * The map's HTTP surface: the public `GET /api/map/overview`, `GET /api/map/area`,
 * `GET /api/map/search` and `GET /api/map/places` (an agent's and its peers' places,
 * for the page to draw a chosen agent where the layout put it) in the Worker, checked there and answered by the directory
 * object's internal `/map/*` routes from its map index.
 *
 * @module
 */
import type { DurableObjectNamespace, SqlStorage } from "@cloudflare/workers-types/index.ts";
import { HttpError, json } from "@agent/net";
import { MAP_AREA_CAP, mapArea, mapOverview, mapPlaces, type MapRect, mapSearch } from "./store.ts";

const API_HEADERS = { "Access-Control-Allow-Origin": "*" };

/** The directory object's `/map/*` routes (internal). */
export function directoryMapRoute(sql: SqlStorage, url: URL, now: number): Response {
  const q = url.searchParams;
  switch (url.pathname) {
    case "/map/overview":
      return json(mapOverview(sql, now));
    case "/map/area": {
      const rect = parseRect(q);
      return json(mapArea(sql, rect, now, Math.min(MAP_AREA_CAP, Number(q.get("cap")))));
    }
    case "/map/search":
      return json({ results: mapSearch(sql, q.get("q") ?? "", now) });
    case "/map/places": {
      const places = mapPlaces(sql, q.get("address") ?? "");
      if (places === undefined) throw new HttpError(404, "not_found");
      return json(places);
    }
    default:
      throw new HttpError(404, "not_found");
  }
}

/**
 * The rectangle `x0`, `y0`, `x1`, `y1` of a query, each in [0, 1].
 *
 * @throws {HttpError} `400 bad_request` naming the field when one is missing or out of range.
 */
export function parseRect(q: URLSearchParams): MapRect {
  const read = (name: string) => {
    const text = q.get(name);
    const value = text === null || text.trim() === "" ? NaN : Number(text);
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      throw new HttpError(400, "bad_request", {
        detail: `${name} must be a number from 0 to 1`,
        headers: API_HEADERS,
      });
    }
    return value;
  };
  const rect = { x0: read("x0"), y0: read("y0"), x1: read("x1"), y1: read("y1") };
  if (rect.x0 > rect.x1 || rect.y0 > rect.y1) {
    throw new HttpError(400, "bad_request", {
      detail: "x0 and y0 must not be greater than x1 and y1",
      headers: API_HEADERS,
    });
  }
  return rect;
}

/** `GET /api/map/<kind>` in the Worker: the query checked, then the directory asked. */
export async function mapApiResponse(
  kind: string,
  url: URL,
  namespace: DurableObjectNamespace,
  now: number,
): Promise<Response> {
  const q = new URLSearchParams({ now: String(now) });
  if (kind === "area") {
    const rect = parseRect(url.searchParams);
    for (const [name, value] of Object.entries(rect)) q.set(name, String(value));
    const capText = url.searchParams.get("cap");
    const cap = capText === null ? MAP_AREA_CAP : Number(capText);
    if (!Number.isInteger(cap) || cap < 1 || cap > MAP_AREA_CAP) {
      throw new HttpError(400, "bad_request", {
        detail: `cap must be a whole number from 1 to ${MAP_AREA_CAP}`,
        headers: API_HEADERS,
      });
    }
    q.set("cap", String(cap));
  } else if (kind === "search") {
    const text = url.searchParams.get("q") ?? "";
    if (text.length > 100) {
      throw new HttpError(400, "bad_request", {
        detail: "q must be at most 100 characters",
        headers: API_HEADERS,
      });
    }
    q.set("q", text);
  } else if (kind === "places") {
    const address = url.searchParams.get("address") ?? "";
    if (address === "" || address.length > 260) {
      throw new HttpError(400, "bad_request", {
        detail: "address must be an agent's address",
        headers: API_HEADERS,
      });
    }
    q.set("address", address);
  } else if (kind !== "overview") {
    throw new HttpError(404, "not_found", { headers: API_HEADERS });
  }
  const stub = namespace.get(namespace.idFromName("directory"));
  const response = await stub.fetch(
    `https://directory.internal/map/${kind}?${q}`,
  ) as unknown as Response;
  if (response.status === 404 && kind === "places") {
    await response.body?.cancel();
    throw new HttpError(404, "not_found", { headers: API_HEADERS });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new HttpError(500, "internal");
  }
  return new Response(response.body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "Cache-Control": kind === "search" || kind === "places" ? "no-store" : "public, max-age=30",
      ...API_HEADERS,
    },
  });
}
