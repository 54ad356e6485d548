import type {
  DurableObjectId,
  DurableObjectNamespace,
  DurableObjectStub,
} from "@cloudflare/workers-types/index.ts";
import { HttpError } from "@agent/net";
import type { AcceptedRequest, ApplyResult } from "./directory.ts";
import type { BuildResult } from "./snapshot_build.ts";

/** The one Directory instance's name. */
export const DIRECTORY_NAME = "directory";

const BASE = "https://directory.internal";

// The stub speaks workerd's Request types; Deno's are the same objects at run time.
type StubInit = Parameters<DurableObjectStub["fetch"]>[1];

const ids = new WeakMap<DurableObjectNamespace, DurableObjectId>();

/** Typed calls from the Worker to the Directory named `directory`. */
export class DirectoryClient {
  #stub: DurableObjectStub;

  constructor(namespace: DurableObjectNamespace) {
    let id = ids.get(namespace);
    if (!id) {
      id = namespace.idFromName(DIRECTORY_NAME);
      ids.set(namespace, id);
    }
    this.#stub = namespace.get(id);
  }

  async #call(path: string, init?: RequestInit): Promise<Response> {
    const response = await this.#stub.fetch(
      `${BASE}${path}`,
      init as StubInit,
    ) as unknown as Response;
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new HttpError(500, "internal");
    }
    return response;
  }

  /** Runs the directory's checks and the effect of an accepted request. */
  async apply(request: AcceptedRequest): Promise<ApplyResult> {
    const response = await this.#call("/apply", {
      method: "POST",
      body: JSON.stringify(request),
    });
    return { status: response.status, body: await response.json() };
  }

  /** Builds the stored snapshot now (when there is none yet). */
  async build(now: number): Promise<BuildResult> {
    return await (await this.#call(`/build?now=${now}`, { method: "POST" })).json();
  }

  /** Asks for a build at the directory's next slot (the stored one is old). */
  async poke(): Promise<void> {
    await (await this.#call("/poke", { method: "POST" })).body?.cancel();
  }

  /** Which of `addresses` (already checked) are listed, in the order asked. */
  async listed(addresses: readonly string[]): Promise<string[]> {
    const response = await this.#call("/listed", {
      method: "POST",
      body: JSON.stringify({ addresses }),
    });
    return ((await response.json()) as { listed: string[] }).listed;
  }

  /** One agent's fields and visible links, or `undefined`. */
  async tau(address: string, now: number): Promise<unknown> {
    const query = new URLSearchParams({ address, now: String(now) });
    const response = await this.#call(`/tau?${query}`);
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json();
  }

  /** The hourly cron at `now` (Unix seconds). */
  async cron(now: number): Promise<{ expired: number; pruned: number }> {
    return await (await this.#call(`/cron?now=${now}`, { method: "POST" })).json();
  }
}
