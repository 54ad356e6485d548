/**
 * The spine seen by `agent cloud`: its health and mode, the file routes
 * (`/hub/files/...`) and the brain (`GET /hub/brain`), with the hub token. Every name
 * the spine lists is checked again against the file set before it is used.
 *
 * @module
 */
import { isCloudFileName } from "@agent/net";
import type { Lang } from "../i18n.ts";
import { SpineError, SpineHttp, type SpineRequest } from "../spine_http/mod.ts";
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

/** How long a file route may take. */
const REQUEST_TIMEOUT_MS = 30_000;

/** How long `GET /hub/brain` may take: the spine waits up to 90 s for the container. */
const BRAIN_TIMEOUT_MS = 100_000;

/** The most of an answer read: a file is at most 512 KiB of text. */
const ANSWER_MAX_BYTES = 1024 * 1024;

/** The cloud routes of one spine. */
export class CloudSpine {
  readonly url: string;
  #http: SpineHttp;
  #lang: Lang;

  constructor(url: string, token: string, lang: Lang, options: { fetch?: typeof fetch } = {}) {
    this.#http = new SpineHttp(url, {
      token,
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxBytes: ANSWER_MAX_BYTES,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.url = this.#http.url;
    this.#lang = lang;
  }

  /** `GET /hub/health`. */
  async health(): Promise<CloudHealth> {
    const { body } = await this.#send("/hub/health", {});
    const health = body as Partial<CloudHealth> | null;
    if (typeof health?.mode !== "string") {
      const detail = "the answer names no mode";
      throw new UserError(
        t(this.#lang, "bad_answer", { url: this.url, what: "GET /hub/health", detail }),
      );
    }
    return health as CloudHealth;
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
    const body = (await this.#send("/hub/files", {})).body as { files?: CloudFile[] } | null;
    const files: CloudFile[] = [];
    const outside: string[] = [];
    for (const file of Array.isArray(body?.files) ? body.files : []) {
      if (typeof file?.name === "string" && isCloudFileName(file.name)) files.push(file);
      else outside.push(String(file?.name));
    }
    return { files, outside };
  }

  /** A file's text, or `undefined` when the spine has none. */
  async read(name: string): Promise<string | undefined> {
    this.#check(name);
    const answer = await this.#send(`/hub/files/${name}`, { expect: [200, 404], answer: "text" });
    return answer.status === 404 ? undefined : answer.body as string;
  }

  /** Uploads a file. */
  async write(name: string, text: string): Promise<void> {
    this.#check(name);
    await this.#send(`/hub/files/${name}`, { method: "PUT", text, answer: "none" });
  }

  /** Deletes a file. */
  async remove(name: string): Promise<void> {
    this.#check(name);
    await this.#send(`/hub/files/${name}`, { method: "DELETE", answer: "none" });
  }

  /** `GET /hub/brain`: the brain's `/health`, or the spine's error code. */
  async brain(): Promise<{ ok: true; health: unknown } | { ok: false; detail: string }> {
    try {
      const { body } = await this.#http.request("/hub/brain", { timeoutMs: BRAIN_TIMEOUT_MS });
      return { ok: true, health: body };
    } catch (error) {
      if (!(error instanceof SpineError)) throw error;
      // An answer: the spine's code (`brain_unavailable`) or its status; none: what happened.
      return { ok: false, detail: error.spineCode || error.detail };
    }
  }

  /**
   * `POST /hub/dashboard/code`: a one-time sign-in code for the dashboard the brain
   * serves behind the spine (`agent dashboard --cloud`); the spine starts the container
   * when needed (up to 90 s).
   */
  async dashboardCode(): Promise<string> {
    const what = "POST /hub/dashboard/code";
    const { body } = await this.#send("/hub/dashboard/code", {
      method: "POST",
      timeoutMs: BRAIN_TIMEOUT_MS,
      what,
    });
    const code = (body as { code?: unknown } | null)?.code;
    if (typeof code !== "string" || !/^[A-Za-z0-9_-]{16,128}$/.test(code)) {
      const detail = "the answer holds no sign-in code";
      throw new UserError(t(this.#lang, "bad_answer", { url: this.url, what, detail }));
    }
    return code;
  }

  #check(name: string): void {
    // Never read or write a name outside the set, whatever a listing said.
    if (!isCloudFileName(name)) throw new TypeError(`Not a cloud file name: ${name}`);
  }

  /** A request whose failure becomes the one line `agent cloud` prints. */
  async #send(path: string, request: SpineRequest) {
    try {
      return await this.#http.request(path, request);
    } catch (error) {
      if (!(error instanceof SpineError)) throw error;
      throw new UserError(this.#sentence(error, request.what ?? whatOf(request, path)), 1, {
        cause: error,
      });
    }
  }

  #sentence(error: SpineError, what: string): string {
    const { detail } = error;
    if (error.status === 0) return t(this.#lang, "unreachable", { url: this.url, detail });
    if (error.status >= 200 && error.status < 300) {
      return t(this.#lang, "bad_answer", { url: this.url, what, detail });
    }
    return t(this.#lang, "refused", {
      url: this.url,
      status: error.status,
      code: error.spineCode ? ` ${error.spineCode}` : "",
      what,
    });
  }
}

function whatOf(request: SpineRequest, path: string): string {
  return `${request.method ?? "GET"} ${path}`;
}
