/**
 * A loopback JSR registry for the release check: it speaks the part of JSR's protocol
 * that `deno publish` and `deno install`/`deno run` use when `JSR_URL` points at it.
 *
 * Publishing (`<url>/api/`): `GET scopes/S/packages/P` (every package exists here),
 * `GET scopes/S/packages/P/versions/V` (200 once published, else 404), `POST
 * scopes/S/packages/P/versions/V?config=/deno.json` with the gzipped tarball and a
 * bearer token (a task that has already succeeded; a second upload of a version answers
 * `duplicateVersionPublish`), `GET publish_status/ID`.
 *
 * Resolving (`<url>`): `@S/P/meta.json` (versions with their real `createdAt`, the
 * latest), `@S/P/V_meta.json` (the manifest of every file with its size and sha256
 * checksum, and the exports of the package's config) and `@S/P/V/<path>`.
 *
 * @module
 */

/** One published version. */
export interface PublishedVersion {
  /** `@scope/name`. */
  name: string;
  version: string;
  /** When it was published (what `meta.json` says as `createdAt`). */
  createdAt: string;
  /** The package's files by absolute path in the package (`/mod.ts`). */
  files: Map<string, Uint8Array>;
  /** The config file's path in the package (`/deno.json`). */
  config: string;
}

/** A running registry. */
export interface JsrRegistry {
  /** `http://127.0.0.1:PORT/`, for `JSR_URL`. */
  url: string;
  /** The versions published so far, in publishing order. */
  published: PublishedVersion[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** Options for {@linkcode startJsrRegistry}. */
export interface JsrRegistryOptions {
  /** The token `deno publish --token` must send. */
  token: string;
}

/** A registry error in JSR's shape, `{code, message}`. */
function apiError(status: number, code: string, message: string, extra = {}): Response {
  return Response.json({ code, message, ...extra }, { status });
}

const TYPES: Record<string, string> = {
  ts: "application/typescript",
  tsx: "text/tsx",
  mts: "application/typescript",
  js: "text/javascript",
  mjs: "text/javascript",
  jsx: "text/jsx",
  json: "application/json",
  jsonc: "application/json",
  md: "text/markdown",
  wasm: "application/wasm",
};

/** Reads a tar archive: regular files by their path (`./a/b.ts` becomes `/a/b.ts`). */
export function readTar(bytes: Uint8Array): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const text = (from: number, length: number) =>
    new TextDecoder().decode(bytes.subarray(from, from + length)).replace(/\0.*$/s, "");
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= bytes.length) {
    const name = text(offset, 100);
    if (name === "") break;
    const size = parseInt(text(offset + 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(bytes[offset + 156] ?? 48);
    const prefix = text(offset + 345, 155);
    const body = bytes.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = new TextDecoder().decode(body).replace(/\0.*$/s, "");
      continue;
    }
    const path = longName ?? (prefix === "" ? name : `${prefix}/${name}`);
    longName = undefined;
    if (type === "0" || type === "\0") {
      files.set(`/${path.replace(/^\.?\//, "")}`, body.slice());
    }
  }
  return files;
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The exports of a package config, as JSR's version metadata gives them. */
function exportsOf(config: Uint8Array): Record<string, string> {
  const json = JSON.parse(new TextDecoder().decode(config));
  const exports = json.exports;
  if (typeof exports === "string") return { ".": exports };
  if (exports !== null && typeof exports === "object") return exports;
  throw new TypeError("Cannot publish: the package config has no exports");
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((p) => Number(p) || 0);
  const pb = b.split(/[.-]/).map((p) => Number(p) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The registry's request handler over `published`. */
export function jsrRegistryHandler(
  published: PublishedVersion[],
  options: JsrRegistryOptions,
): (request: Request) => Promise<Response> {
  const find = (name: string, version: string) =>
    published.find((p) => p.name === name && p.version === version);
  const tasks = new Map<string, { id: string; status: string; error: null }>();
  return async (request) => {
    const url = new URL(request.url);
    const path = decodeURIComponent(url.pathname);
    const api = path.match(/^\/api\/scopes\/([^/]+)\/packages\/([^/]+)(?:\/versions\/([^/]+))?$/);
    if (api !== null) {
      const [, scope, pkg, version] = api;
      const name = `@${scope}/${pkg}`;
      if (version === undefined) return Response.json({ scope, name: pkg });
      if (request.method === "GET") {
        return find(name, version) === undefined
          ? apiError(404, "packageVersionNotFound", `${name}@${version} is not published`)
          : Response.json({ scope, package: pkg, version });
      }
      if (request.method !== "POST") return apiError(405, "methodNotAllowed", request.method);
      if (request.headers.get("authorization") !== `Bearer ${options.token}`) {
        return apiError(401, "invalidBearerToken", "The token is not this registry's");
      }
      const existing = find(name, version);
      if (existing !== undefined) {
        const task = { id: `${name}@${version}`, status: "success", error: null };
        return apiError(409, "duplicateVersionPublish", `${name}@${version} exists`, { task });
      }
      const body = new Uint8Array(await request.arrayBuffer());
      let files: Map<string, Uint8Array>;
      try {
        files = readTar(
          request.headers.get("content-encoding") === "gzip" ? await gunzip(body) : body,
        );
      } catch {
        return apiError(400, "invalidTarball", "The tarball cannot be read");
      }
      const config = url.searchParams.get("config") ?? "/deno.json";
      const configBytes = files.get(config);
      if (configBytes === undefined) {
        return apiError(400, "missingConfigFile", `The tarball has no ${config}`);
      }
      try {
        exportsOf(configBytes);
      } catch (error) {
        return apiError(400, "invalidConfigFile", (error as Error).message);
      }
      published.push({ name, version, createdAt: new Date().toISOString(), files, config });
      const task = { id: crypto.randomUUID(), status: "success", error: null };
      tasks.set(task.id, task);
      return Response.json(task);
    }
    const status = path.match(/^\/api\/publish_status\/([^/]+)$/);
    if (status !== null) {
      const task = tasks.get(status[1]!);
      return task === undefined ? apiError(404, "taskNotFound", status[1]!) : Response.json(task);
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return apiError(405, "methodNotAllowed", request.method);
    }
    const meta = path.match(/^\/(@[^/]+\/[^/]+)\/meta\.json$/);
    if (meta !== null) {
      const versions = published.filter((p) => p.name === meta[1]);
      if (versions.length === 0) return apiError(404, "packageNotFound", meta[1]!);
      const [scope, name] = meta[1]!.slice(1).split("/");
      const sorted = versions.map((v) => v.version).sort(compareVersions);
      return Response.json({
        scope,
        name,
        latest: sorted.at(-1),
        versions: Object.fromEntries(versions.map((v) => [v.version, { createdAt: v.createdAt }])),
      });
    }
    const versionMeta = path.match(/^\/(@[^/]+\/[^/]+)\/([^/]+)_meta\.json$/);
    if (versionMeta !== null) {
      const version = find(versionMeta[1]!, versionMeta[2]!);
      if (version === undefined) return apiError(404, "packageVersionNotFound", path);
      const manifest: Record<string, { size: number; checksum: string }> = {};
      for (const [file, bytes] of version.files) {
        manifest[file] = { size: bytes.length, checksum: `sha256-${await sha256(bytes)}` };
      }
      return Response.json({
        manifest,
        exports: exportsOf(version.files.get(version.config)!),
      });
    }
    const file = path.match(/^\/(@[^/]+\/[^/]+)\/([^/_][^/]*)(\/.+)$/);
    if (file !== null) {
      const bytes = find(file[1]!, file[2]!)?.files.get(file[3]!);
      if (bytes === undefined) return apiError(404, "notFound", path);
      const type = TYPES[file[3]!.split(".").pop() ?? ""] ?? "application/octet-stream";
      return new Response(bytes as BodyInit, { headers: { "content-type": type } });
    }
    return apiError(404, "notFound", path);
  };
}

/** Starts the registry on a free loopback port. */
export function startJsrRegistry(options: JsrRegistryOptions): JsrRegistry {
  const published: PublishedVersion[] = [];
  const handler = jsrRegistryHandler(published, options);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    handler,
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    published,
    close: () => server.shutdown(),
  };
}
