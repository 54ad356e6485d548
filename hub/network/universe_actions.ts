/**
 * What `agent net universe join | leave | status` do, in one place for the command and
 * the dashboard's Network page: join writes the profile (owner, about, links on or
 * off), publishes the card when the spine does not hold the one this hub would
 * publish, joins and reports once; leave tells the universe (already gone is fine)
 * and marks the profile, so the hub stops reporting; status reads the profile and the
 * universe's listing. Failures become one sentence naming their culprit.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { Lang } from "../i18n.ts";
import type { SubAgentDirectory } from "../subs/mod.ts";
import type { NetNode } from "./node.ts";
import { OwnSpineError } from "./spine_client.ts";
import { joinAndReport, type UniverseClient, UniverseError } from "./universe.ts";
import { t, type UniverseSentenceKey } from "./_universe_messages.ts";

/** What a join may change in the profile; what is left out stays as it is. */
export interface UniverseJoinFields {
  /** The owner's display name (0 to 60 characters). */
  owner?: string;
  /** One line about the agent (0 to 200 characters). */
  about?: string;
  /** Whether mutual links are reported. */
  links?: boolean;
}

/** The longest owner name and about line, in characters. */
export const UNIVERSE_FIELD_MAX = { owner: 60, about: 200 } as const;

/** What a join did. */
export interface UniverseJoined {
  address: string;
  host: string;
  visibleLinks: number;
  url: string;
}

/** This agent in the universe, as `status` reads it. */
export interface UniverseStanding {
  host: string;
  /** Whether the profile says joined (the hub reports while it does). */
  joined: boolean;
  /** Whether links are reported (the profile's, else `[net] universe_links`). */
  links: boolean;
  owner: string;
  about: string;
  reportMinutes: number;
  /** The universe's listing of this agent; `undefined` when it lists none. */
  listing?: { name: string; online: boolean; links: { peer: string; messages: number }[] };
  /** The sentence when the universe could not be read. */
  failure?: string;
  /** The universe's page for this agent. */
  pageUrl: string;
}

/** A universe sentence (`joined`, `left`, `off`, `too_long`, the failures). */
export function universeSentence(
  lang: Lang,
  key: UniverseSentenceKey,
  values: Record<string, string | number> = {},
): string {
  return t(lang, key, values);
}

/**
 * The sentence for a field past its length (`--owner has more than 60 characters.`),
 * or `undefined` when both fit.
 */
export function universeFieldsProblem(lang: Lang, fields: UniverseJoinFields): string | undefined {
  for (const option of ["owner", "about"] as const) {
    const value = fields[option];
    const max = UNIVERSE_FIELD_MAX[option];
    if (typeof value === "string" && Array.from(value).length > max) {
      return t(lang, "too_long", { option, max });
    }
  }
  return undefined;
}

/** `agent net universe join`: the profile, the card when needed, the join and a report. */
export async function joinUniverse(
  node: NetNode,
  client: UniverseClient,
  subs: SubAgentDirectory | undefined,
  fields: UniverseJoinFields,
): Promise<UniverseJoined> {
  const profile = await node.state.profile();
  const links = fields.links ?? profile.universe_links;
  await node.state.setProfile({
    ...profile,
    universe_join: true,
    universe_owner: fields.owner ?? profile.universe_owner ?? "",
    universe_about: fields.about ?? profile.universe_about ?? "",
    ...(links === undefined ? {} : { universe_links: links }),
  });
  // The universe reads the card at the address: publish it first when it is not there
  // or not what this hub would publish.
  const want = await node.cardInput();
  const published = (await node.state.profile()).published;
  if (
    published === undefined || published.name !== want.name ||
    published.sign_key !== want.sign_key ||
    published.box_key !== want.box_key
  ) {
    await node.publish();
  }
  const result = await joinAndReport(client, node, subs, { join: true });
  return {
    address: await node.address(),
    host: client.host,
    visibleLinks: result.visibleLinks,
    url: result.url ?? await client.pageUrl(),
  };
}

/** `agent net universe leave`: the universe told (already gone is fine), the profile marked. */
export async function leaveUniverse(
  node: NetNode,
  client: UniverseClient,
): Promise<{ address: string; host: string }> {
  try {
    await client.leave();
  } catch (error) {
    // Already gone (expired, or left from another home): the profile still changes.
    if (!(error instanceof UniverseError) || error.code !== "not_joined") throw error;
  }
  await node.state.setProfile({ ...(await node.state.profile()), universe_join: false });
  return { address: await node.address(), host: client.host };
}

/** `agent net universe status`: the profile and the universe's listing of this agent. */
export async function universeStanding(
  node: NetNode,
  client: UniverseClient,
  lang: Lang,
): Promise<UniverseStanding> {
  const profile = await node.state.profile();
  const standing: UniverseStanding = {
    host: client.host,
    joined: profile.universe_join === true,
    links: profile.universe_links ?? node.config.net.universe_links,
    owner: profile.universe_owner ?? "",
    about: profile.universe_about ?? "",
    reportMinutes: node.config.net.universe_report_minutes,
    pageUrl: await client.pageUrl(),
  };
  try {
    const listing = await client.listing();
    if (listing !== undefined) standing.listing = listing;
  } catch (error) {
    standing.failure = universeFailure(lang, client.host, error) ??
      t(lang, "failed", { host: client.host, detail: errorMessage(error) });
  }
  return standing;
}

/**
 * The sentence for a failure of a universe action, naming its culprit: the own
 * spine, the universe not answering, plain http where https was asked, a URL written
 * for a host, or the universe's refusal. `undefined` for anything else.
 */
export function universeFailure(lang: Lang, host: string, error: unknown): string | undefined {
  if (error instanceof OwnSpineError) {
    return t(lang, "own_spine", { url: error.url, host, detail: error.detail });
  }
  if (!(error instanceof UniverseError)) return undefined;
  switch (error.code) {
    case "scheme_in_host":
      return t(lang, "scheme_in_host", { bare: error.host ?? host });
    case "not_https":
      return t(lang, "not_https", { host });
    case "unreachable":
      return t(lang, "unreachable", { host, detail: error.reason ?? error.message });
    default:
      return t(lang, "failed", { host, detail: error.message });
  }
}
