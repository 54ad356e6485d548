/**
 * The hub's network identity on disk: `<AGENT_DATA_DIR>/net/identity.json` (mode 0600
 * in a 0700 folder, never overwritten), or `AGENT_NET_IDENTITY` when set (cloud mode).
 *
 * @module
 */

import {
  generateIdentity,
  type Identity,
  identityFromEnv,
  identityFromJson,
  identityToJson,
} from "@agent/net";
import type { AgentPaths } from "../paths.ts";

/** Where a loaded identity came from. */
export type IdentitySource = "env" | "file";

/** An identity with its origin. */
export interface LoadedIdentity {
  /** The identity. */
  identity: Identity;
  /** `env` (`AGENT_NET_IDENTITY`) or `file` (`identity.json`). */
  source: IdentitySource;
  /** The identity file's path (also when the identity came from the environment). */
  file: string;
}

/** The result of {@linkcode initIdentity}. */
export interface InitIdentityResult extends LoadedIdentity {
  /** True when this call created the identity file. */
  created: boolean;
}

/** An identity that exists but cannot be read; the message names the file or variable. */
export class IdentityFileError extends Error {
  /** Creates an `IdentityFileError`. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "IdentityFileError";
  }
}

/** `<AGENT_DATA_DIR>/net/identity.json`. */
export function identityFilePath(paths: AgentPaths): string {
  return `${paths.netDir}/identity.json`;
}

/**
 * Loads the identity: `AGENT_NET_IDENTITY` when set and non-empty, else the identity
 * file. Returns `undefined` when neither exists.
 *
 * @throws {IdentityFileError} when the variable or the file holds no valid identity.
 */
export async function loadIdentity(
  paths: AgentPaths,
  env: Readonly<Record<string, string | undefined>>,
): Promise<LoadedIdentity | undefined> {
  const file = identityFilePath(paths);
  const fromEnv = env.AGENT_NET_IDENTITY?.trim();
  if (fromEnv !== undefined && fromEnv !== "") {
    try {
      return { identity: await identityFromEnv(fromEnv), source: "env", file };
    } catch (cause) {
      throw new IdentityFileError(
        "Cannot load the network identity: AGENT_NET_IDENTITY is not a base64url-encoded identity JSON.",
        { cause },
      );
    }
  }
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new IdentityFileError(`Cannot load the network identity: ${file} is not readable.`, {
      cause: error,
    });
  }
  try {
    return { identity: await identityFromJson(text), source: "file", file };
  } catch (cause) {
    throw new IdentityFileError(
      `Cannot load the network identity: ${file} is not a valid identity (${
        (cause as Error).message
      }).`,
      { cause },
    );
  }
}

/**
 * Creates the identity file unless an identity already exists (`agent net init`).
 * Never overwrites: an existing file, or `AGENT_NET_IDENTITY`, is loaded and returned
 * with `created: false`. The folder is made 0700 and the file 0600; the file appears
 * whole (written beside it, synced, then hard-linked into place, which fails rather
 * than replace a file another process created meanwhile).
 *
 * @throws {IdentityFileError} when an existing identity cannot be read.
 */
export async function initIdentity(
  paths: AgentPaths,
  env: Readonly<Record<string, string | undefined>>,
): Promise<InitIdentityResult> {
  const existing = await loadIdentity(paths, env);
  if (existing !== undefined) return { ...existing, created: false };
  const identity = await generateIdentity();
  const file = identityFilePath(paths);
  await Deno.mkdir(paths.netDir, { recursive: true, mode: 0o700 });
  await chmodIfPossible(paths.netDir, 0o700);
  const temp = `${file}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const bytes = new TextEncoder().encode(`${JSON.stringify(identityToJson(identity))}\n`);
  const handle = await Deno.open(temp, { write: true, createNew: true, mode: 0o600 });
  try {
    await chmodIfPossible(temp, 0o600);
    let written = 0;
    while (written < bytes.length) written += await handle.write(bytes.subarray(written));
    await handle.sync();
  } finally {
    handle.close();
    bytes.fill(0);
  }
  try {
    await Deno.link(temp, file);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      await Deno.remove(temp).catch(() => {});
      throw error;
    }
    // Another process won the race: theirs stays, ours is discarded.
    await Deno.remove(temp).catch(() => {});
    const theirs = await loadIdentity(paths, {});
    if (theirs === undefined) throw error;
    return { ...theirs, created: false };
  }
  await Deno.remove(temp).catch(() => {});
  return { identity, source: "file", file, created: true };
}

async function chmodIfPossible(path: string, mode: number): Promise<void> {
  if (Deno.build.os === "windows") return;
  await Deno.chmod(path, mode);
}
