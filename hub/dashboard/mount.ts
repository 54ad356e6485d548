/**
 * The two places the dashboard is served from. Locally it lives on the hub's loopback
 * control port under `/dashboard` (the control API has checked the loopback `Host`;
 * the own origin is `http://<Host>`). In cloud mode the brain serves it under
 * `/hub/dashboard` behind the spine: the browser talks to the spine's https origin,
 * the spine forwards each request with the hub token and names the origin it was
 * reached at in {@linkcode DASHBOARD_ORIGIN_HEADER}; the brain answers only when that is
 * its spine's own origin (`AGENT_SPINE_URL`), which is the Host check there.
 *
 * @module
 */
import { DASHBOARD_ORIGIN_HEADER, HttpError } from "@agent/net";
import type { DashboardMount } from "./types.ts";
import { sessionKeyFrom } from "./signed_session.ts";

export { DASHBOARD_ORIGIN_HEADER };

/** The dashboard on the hub's control port (`agent dashboard`). */
export function localMount(): DashboardMount {
  return {
    base: "/dashboard",
    origin: (request) => `http://${request.headers.get("host") ?? ""}`,
    command: "agent dashboard",
  };
}

/**
 * The dashboard the brain serves behind its cloud spine at `spineUrl`
 * (`agent dashboard --cloud`): requests reach it only through the spine, which
 * vouches with the hub token (checked by the brain's port) and says which origin it
 * was reached at. Sessions are signed with a key derived from `hubToken`, so a
 * container that slept and started again still knows them.
 *
 * @example
 * ```ts
 * import { cloudMount } from "./mount.ts";
 * const mount = cloudMount("https://agent.example.com", "hub-token");
 * const req = new Request("http://brain/hub/dashboard/", {
 *   headers: { "x-agent-dashboard-origin": "https://agent.example.com" },
 * });
 * if (mount.origin(req) !== "https://agent.example.com") throw new Error();
 * ```
 */
export function cloudMount(spineUrl: string, hubToken: string): DashboardMount {
  const own = new URL(spineUrl).origin;
  return {
    base: "/hub/dashboard",
    origin(request) {
      // The spine's name for itself; another name (the workers.dev one when the
      // spine's address is a custom domain, or none) is refused like a foreign Host.
      if (request.headers.get(DASHBOARD_ORIGIN_HEADER) !== own) {
        throw new HttpError(403, "forbidden");
      }
      return own;
    },
    command: "agent dashboard --cloud",
    sessionKey: sessionKeyFrom(hubToken),
  };
}
