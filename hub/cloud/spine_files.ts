/**
 * The spine seen by `agent cloud`: its health and mode, the file routes
 * (`/hub/files/...`) and the brain (`GET /hub/brain`), with the hub token. Every name
 * the spine lists is checked again against the file set before it is used.
 *
 * @module
 */
import { errorMessage, isCloudFileName } from "@agent/net";
import type { Lang } from "../i18n.ts";
import { UserError } from "../user_error.ts";
import { t } from "./_messages.ts";

/** A file the spine holds. */
export interface CloudFile {
  name: string;
  size: number;
  /** Unix seconds. */
  updated_at: number;
}

/** What `GET /hub/health` says. */
export interface CloudHealth {
  mode: string;
  address: string;
  version: string;
}

/** The spine URL and token of `agent cloud`, or the one line saying which is missing. */
export function cloudTarget(
  env: Readonly<Record<string, string | undefined>>,
  lang: Lang,
): { url: string; token: string } {
  const url = env.AGENT_SPINE_URL?.trim().replace(/\/+$/, "");
  const token = env.AGENT_SPINE_TOKEN?.trim();
  if (!url) throw new UserError(t(lang, "missing_variable", { variable: "AGENT_SPINE_URL" }));
  if (!token) throw new UserError(t(lang, "missing_variable", { variable: "AGENT_SPINE_TOKEN" }));
  return { url, token };
}

/** The cloud routes of one spine. */
export class CloudSpine {
  readonly url: string;
  #token: string;
  #lang: Lang;
  #fetch: typeof fetch;

  constructor(url: string, token: string, lang: Lang, options: { fetch?: typeof fetch } = {}) {
    this.url = url.replace(/\/+$/, "");
    this.#token = token;
    this.#lang = lang;
    this.#fetch = options.fetch ?? fetch;
  }

  /** `GET /hub/health`. */
  async health(): Promise<CloudHealth> {
    const res = await this.#send("GET", "/hub/health", "GET /hub/health");
    return await res.json() as CloudHealth;
  }

  /** Throws the one line of `agent cloud run` unless the spine runs in cloud mode. */
  async requireCloudMode(): Promise<CloudHealth> {
    const health = await this.health();
    if (health.mode !== "cloud") {
      throw new UserError(t(this.#lang, "not_cloud", { url: this.url, mode: health.mode }));
    }
    return health;
  }

  /** The files the spine holds, names outside the set left out and returned apart. */
  async files(): Promise<{ files: CloudFile[]; outside: string[] }> {
    const res = await this.#send("GET", "/hub/files", "GET /hub/files");
    const body = await res.json() as { files?: CloudFile[] };
    const files: CloudFile[] = [];
    const outside: string[] = [];
    for (const file of body.files ?? []) {
      if (typeof file?.name === "string" && isCloudFileName(file.name)) files.push(file);
      else outside.push(String(file?.name));
    }
    return { files, outside };
  }

  /** A file's text, or `undefined` when the spine has none. */
  async read(name: string): Promise<string | undefined> {
    this.#check(name);
    const res = await this.#send("GET", `/hub/files/${name}`, `GET /hub/files/${name}`, [404]);
    if (res.status === 404) {
      await res.body?.cancel();
      return undefined;
    }
    return await res.text();
  }

  /** Uploads a file. */
  async write(name: string, text: string): Promise<void> {
    this.#check(name);
    const res = await this.#send("PUT", `/hub/files/${name}`, `PUT /hub/files/${name}`, [], text);
    await res.body?.cancel();
  }

  /** Deletes a file. */
  async remove(name: string): Promise<void> {
    this.#check(name);
    const res = await this.#send("DELETE", `/hub/files/${name}`, `DELETE /hub/files/${name}`);
    await res.body?.cancel();
  }

  /** `GET /hub/brain`: the brain's `/health`, or the spine's error code. */
  async brain(): Promise<{ ok: true; health: unknown } | { ok: false; detail: string }> {
    try {
      const res = await this.#fetch(`${this.url}/hub/brain`, {
        headers: { authorization: `Bearer ${this.#token}` },
        signal: AbortSignal.timeout(100_000),
      });
      const text = await res.text();
      if (res.ok) return { ok: true, health: JSON.parse(text) };
      return { ok: false, detail: errorCode(text) || `HTTP ${res.status}` };
    } catch (error) {
      return { ok: false, detail: errorMessage(error) };
    }
  }

  #check(name: string): void {
    // Never read or write a name outside the set, whatever a listing said.
    if (!isCloudFileName(name)) throw new TypeError(`Not a cloud file name: ${name}`);
  }

  async #send(
    method: string,
    path: string,
    what: string,
    alsoOk: number[] = [],
    body?: string,
  ): Promise<Response> {
    let res: Response;
    try {
      res = await this.#fetch(`${this.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          ...(body === undefined ? {} : { "content-type": "text/plain; charset=utf-8" }),
        },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new UserError(
        t(this.#lang, "unreachable", { url: this.url, detail: errorMessage(error) }),
      );
    }
    if (!res.ok && !alsoOk.includes(res.status)) {
      const code = errorCode(await res.text());
      throw new UserError(t(this.#lang, "refused", {
        url: this.url,
        status: res.status,
        code: code ? ` ${code}` : "",
        what,
      }));
    }
    return res;
  }
}

function errorCode(text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === "string" ? error : "";
  } catch {
    return "";
  }
}
