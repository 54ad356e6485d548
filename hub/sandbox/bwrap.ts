/**
 * A child process fenced by bubblewrap (`bwrap`): the operating system is the only
 * boundary a tool's child cannot talk its way past (Deno's permissions bind Deno code,
 * not the programs it starts). The `shell` tool and MCP servers with `sandbox = true`
 * run through here.
 *
 * What the child sees: the system's programs and libraries read-only (`/usr` and its
 * links, a short list of `/etc` files a program needs to start, never `/etc/shadow`),
 * a fresh `/proc`, `/dev` and `/tmp`, the folders the caller binds and nothing else
 * (the root itself read-only, so a write lands only in `/tmp` or a writable bind):
 * not `/root`, not `/home`, so not the agent's home (its `.env`, its identity) nor its
 * data folder, which are also covered with an empty folder should they lie under a
 * system path. Every namespace is new (`--unshare-all`), so there is no network unless
 * the caller shares it; the child is killed with its parent and runs in a new session
 * (no terminal tricks), with every capability dropped when the agent runs as root.
 *
 * @module
 */

/** A folder (or file) of the host made visible inside the sandbox. */
export interface SandboxBind {
  /** The host path. */
  host: string;
  /** Where the child sees it. @default the host path */
  inside?: string | undefined;
  /** Bound read-write. @default false */
  writable?: boolean | undefined;
}

/** Options for {@linkcode sandboxArgs}. */
export interface SandboxOptions {
  /** What the child may see besides the system. */
  binds: readonly SandboxBind[];
  /** Host paths never shown, even under a system folder (the agent's home, its data). */
  hidden: readonly string[];
  /** Keep the host's network. @default false */
  network?: boolean | undefined;
  /** The child's working folder (a path inside). */
  cwd: string;
  /** The child's whole environment; nothing else is passed. */
  env: Readonly<Record<string, string>>;
}

/** System folders bound read-only when they exist (symbolic links are recreated). */
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"];

/**
 * The `/etc` entries a program needs to start and to resolve names: links of the
 * alternatives system, the loader's cache, users and groups (names only, no hashes),
 * certificates, time zone. `/etc/shadow`, ssh keys and the like stay out.
 */
const ETC = [
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "nsswitch.conf",
  "passwd",
  "group",
  "hosts",
  "host.conf",
  "resolv.conf",
  "localtime",
  "timezone",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "mime.types",
  "os-release",
  "debian_version",
  "protocols",
  "services",
  "profile",
  "bash.bashrc",
  "inputrc",
  "locale.alias",
  "terminfo",
  "magic",
];

/**
 * The `bwrap` arguments that run `command` (program then arguments) as the options
 * say; give them to {@linkcode runSandboxed} or prefix them with `bwrap`.
 *
 * @example
 * ```ts
 * import { sandboxArgs } from "./bwrap.ts";
 * const args = sandboxArgs(["sh", "-c", "ls"], {
 *   binds: [{ host: "/tmp/s", inside: "/work", writable: true }],
 *   hidden: ["/root/.agent"], cwd: "/work", env: { PATH: "/usr/bin" },
 * });
 * if (!args.includes("--unshare-all") || args.includes("--share-net")) throw new Error();
 * if (args.at(-3) !== "sh") throw new Error(args.join(" "));
 * ```
 */
export function sandboxArgs(command: readonly string[], options: SandboxOptions): string[] {
  if (command.length === 0) throw new TypeError("Cannot sandbox a command: it is empty");
  const args = [
    "--unshare-all",
    ...(options.network === true ? ["--share-net"] : []),
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--clearenv",
  ];
  const bound: string[] = [];
  for (const dir of SYSTEM) {
    const link = readLink(dir);
    if (link !== undefined) args.push("--symlink", link, dir);
    else if (exists(dir)) {
      args.push("--ro-bind", dir, dir);
      bound.push(dir);
    }
  }
  for (const name of ETC) {
    const path = `/etc/${name}`;
    if (exists(path)) {
      args.push("--ro-bind", path, path);
      bound.push(path);
    }
  }
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  // A secret under a system folder (a home in /opt) is covered with an empty folder.
  for (const path of options.hidden) {
    if (bound.some((b) => path === b || path.startsWith(`${b}/`)) && exists(path)) {
      args.push(isDir(path) ? "--tmpfs" : "--ro-bind", isDir(path) ? path : "/dev/null", path);
    }
  }
  for (const bind of options.binds) {
    args.push(bind.writable === true ? "--bind" : "--ro-bind", bind.host, bind.inside ?? bind.host);
  }
  // The sandbox's own root (where `/etc` and the mount points live) is read-only too:
  // only the writable binds and `/tmp` take writes.
  args.push("--remount-ro", "/");
  for (const [name, value] of Object.entries(options.env)) args.push("--setenv", name, value);
  args.push("--chdir", options.cwd, "--", ...command);
  return args;
}

/** Where `bwrap` is, or `undefined` when it is not installed or cannot make a sandbox. */
export async function findBwrap(
  env: Readonly<Record<string, string | undefined>> = Deno.env.toObject(),
): Promise<string | undefined> {
  const cached = found.get(env.PATH ?? "");
  if (cached !== undefined) return await cached;
  const probe = (async () => {
    for (const dir of (env.PATH ?? "/usr/bin:/bin").split(":")) {
      if (dir === "") continue;
      const path = `${dir}/bwrap`;
      if (!exists(path)) continue;
      try {
        // A sandbox that starts and exits cleanly: unprivileged user namespaces may be
        // switched off on the machine, which only a real start shows.
        const { code } = await new Deno.Command(path, {
          args: ["--unshare-all", "--ro-bind", "/", "/", "--", "true"],
          stdin: "null",
          stdout: "null",
          stderr: "null",
        }).output();
        return code === 0 ? path : undefined;
      } catch {
        return undefined;
      }
    }
    return undefined;
  })();
  found.set(env.PATH ?? "", probe);
  return await probe;
}

const found = new Map<string, Promise<string | undefined>>();

function readLink(path: string): string | undefined {
  try {
    return Deno.lstatSync(path).isSymlink ? Deno.readLinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
