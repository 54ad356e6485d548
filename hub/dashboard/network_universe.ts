/**
 * The Network page's universe and digest routes. The universe actions are the same
 * calls as `agent net universe join | leave | status` (`hub/network/universe_actions.ts`),
 * so the page and the command write the same profile, publish the same card and say
 * the same sentences; the digest is what the network digest told the owner (its
 * `net.digest` owner events) and what it has gathered for the next one.
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET network/universe` | `agent net universe status` as JSON (`{host: ""}` when off) |
 * | `POST network/universe/join` `{owner?, about?, links?}` | `agent net universe join` |
 * | `POST network/universe/leave` | `agent net universe leave` |
 * | `POST network/universe/links` `{on}` | `agent net universe join --links` / `--no-links` |
 * | `GET network/digest` | `{mode, told: [...], gathered: {conversations, due_ms} \| null}` |
 *
 * @module
 */
import { HttpError, json } from "@agent/net";
import {
  joinUniverse,
  leaveUniverse,
  UniverseClient,
  universeFailure,
  universeFieldsProblem,
  type UniverseJoinFields,
  universeSentence,
  universeStanding,
} from "../network/mod.ts";
import { jsonBody, pageLang } from "./body.ts";
import type { NetNode } from "../network/node.ts";
import type { Lang } from "../i18n.ts";
import type { DashboardRoutes, NetworkSources } from "./types.ts";

/** How many told digests the page shows. */
const TOLD = 5;

/** Adds the universe and digest routes to `routes`. */
export function addUniverseRoutes(
  routes: DashboardRoutes,
  sources: NetworkSources,
): DashboardRoutes {
  routes.get("/network/digest", async () => {
    const told = (await sources.digests?.() ?? []).slice(-TOLD).reverse();
    const gathered = await sources.gathered?.();
    return json({
      mode: sources.digestMode?.() ?? "off",
      told,
      gathered: gathered === undefined
        ? null
        : { conversations: gathered.conversations, due_ms: gathered.dueMs },
    });
  });
  routes.get("/network/universe", async (request) => {
    const lang = pageLang(request, sources.lang);
    const host = sources.universeHost?.().trim() ?? "";
    if (host === "") return json({ host: "", off: universeSentence(lang, "off") });
    const node = sources.node();
    if (node === undefined) throw new HttpError(409, "not_configured");
    try {
      return json(await universeStanding(node, new UniverseClient(node, host), lang));
    } catch (error) {
      throw refusal(lang, host, error);
    }
  });
  const act = (
    work: (
      node: NetNode,
      client: UniverseClient,
      body: Record<string, unknown>,
      lang: Lang,
    ) => Promise<string>,
  ) =>
  async (request: Request) => {
    const lang = pageLang(request, sources.lang);
    const host = sources.universeHost?.().trim() ?? "";
    const body = await jsonBody(request);
    if (host === "") {
      throw new HttpError(409, "bad_request", { detail: universeSentence(lang, "off") });
    }
    const node = sources.node();
    if (node === undefined) throw new HttpError(409, "not_configured");
    let said: string;
    try {
      said = await work(node, new UniverseClient(node, host), body, lang);
    } catch (error) {
      throw refusal(lang, host, error);
    }
    // The hub's own report and `/status` follow the act now (a failed report there is
    // the reporter's to say; the act itself was done).
    await sources.universeChanged?.().catch(() => {});
    return json({ said });
  };
  const join = (links: boolean) =>
    act(async (node, client, body, lang) => {
      const fields: UniverseJoinFields = links ? { links: flag(body.on, "on") } : {
        ...(body.owner === undefined ? {} : { owner: text(body.owner, "owner") }),
        ...(body.about === undefined ? {} : { about: text(body.about, "about") }),
        ...(body.links === undefined ? {} : { links: flag(body.links, "links") }),
      };
      const problem = universeFieldsProblem(lang, fields);
      if (problem !== undefined) throw new HttpError(400, "bad_request", { detail: problem });
      const joined = await joinUniverse(node, client, sources.subs?.(), fields);
      return universeSentence(lang, "joined", { ...joined, links: joined.visibleLinks });
    });
  return routes
    .post("/network/universe/join", join(false))
    .post("/network/universe/links", join(true))
    .post(
      "/network/universe/leave",
      act(async (node, client, _body, lang) =>
        universeSentence(lang, "left", await leaveUniverse(node, client))
      ),
    );
}

/** A failure the command would name in one sentence becomes a 502 with it. */
function refusal(lang: NetworkSources["lang"], host: string, error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const sentence = universeFailure(lang, host, error);
  return sentence === undefined ? error : new HttpError(502, "universe", { detail: sentence });
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string") {
    throw new HttpError(400, "bad_request", { detail: `${field}: not text` });
  }
  return value;
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") {
    throw new HttpError(400, "bad_request", { detail: `${field}: true or false` });
  }
  return value;
}
