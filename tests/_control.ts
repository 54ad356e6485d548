/**
 * Reaching a running hub's control API from a test as the owner's CLI does: with the
 * bearer token the hub wrote to `<data>/hub.token`. The data folder is the one the
 * hub's open `GET /health` names, so a test needs only the port.
 *
 * @module
 */

/** `fetch` of `http://127.0.0.1:<port><path>` with the hub's bearer token. */
export async function controlFetch(
  port: number,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const health = await (await fetch(`http://127.0.0.1:${port}/health`)).json() as {
    data_dir?: string;
  };
  const token = (await Deno.readTextFile(`${health.data_dir}/hub.token`)).trim();
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return await fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers });
}

/** The JSON of {@linkcode controlFetch}. */
// deno-lint-ignore no-explicit-any
export async function controlJson(port: number, path: string): Promise<any> {
  return await (await controlFetch(port, path)).json();
}
