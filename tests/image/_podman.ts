/**
 * Podman for the brain-image test and bench, on a machine that reaches no image registry.
 *
 * Each call runs with this folder's `containers.conf` (runc, no ulimits of podman's own,
 * cgroupfs, events to a file) through `CONTAINERS_CONF`, leaving the machine's
 * configuration alone. The Dockerfile's base, `denoland/deno:debian-<version>`, cannot be
 * pulled, so {@linkcode ensureBaseImage} makes an image under that exact name: Debian
 * bookworm from `debootstrap --variant=minbase` (the mirror apt uses), slimmed like
 * `debian:bookworm-slim`, plus the running Deno binary (the npm package's real one) as
 * `/usr/bin/deno`, the user `deno` (uid 1993) and `DENO_DIR=/deno-dir/` as in Deno's own
 * image. The root file system is kept as a tarball in `~/.cache/agent-test/`, keyed by the
 * Debian release, the Deno version and this recipe, and the image stays in podman's
 * store: the first run takes about a minute, later ones nothing.
 *
 * @module
 */

/** This folder's `containers.conf`. */
export const CONTAINERS_CONF: string = new URL("./containers.conf", import.meta.url).pathname;

/** The Debian release of the base image. */
export const DEBIAN_RELEASE = "bookworm";

/** Bumped whenever the base recipe changes, so a stale cached base is rebuilt. */
const RECIPE = "1";
const LABEL = "agent.test.base";

/** What a podman call printed and returned. */
export interface PodmanResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `podman <args>` with {@linkcode CONTAINERS_CONF}. */
export async function podman(args: string[]): Promise<PodmanResult> {
  const out = await new Deno.Command("podman", {
    args,
    env: { CONTAINERS_CONF },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** The first line of a failed call's error output that says something. */
export function firstError(result: PodmanResult): string {
  const lines = result.stderr.split("\n").map((l) => l.trim())
    // podman without systemd says this about health-check timers on every run.
    .filter((l) => l !== "" && !l.includes("unable to get systemd connection"));
  return lines.find((l) => /error/i.test(l)) ?? lines[0] ?? `exit ${result.code}`;
}

/** The full name podman gives an image named on Docker Hub (`docker.io/...`). */
export function qualified(image: string): string {
  const first = image.split("/")[0]!;
  const hasRegistry = image.includes("/") && /[.:]|^localhost$/.test(first);
  if (hasRegistry) return image;
  return image.includes("/") ? `docker.io/${image}` : `docker.io/library/${image}`;
}

/** How {@linkcode ensureBaseImage} got the base. */
export interface BaseImage {
  /** The image's name, as the Dockerfile's `FROM` says it. */
  name: string;
  /** `present`: in podman's store; `cached`: imported from the tarball; `built`: debootstrap. */
  how: "present" | "cached" | "built";
  /** Milliseconds spent (debootstrap included when built). */
  ms: number;
  /** Milliseconds of debootstrap alone, when built. */
  debootstrapMs?: number;
}

/** Why there is no base image (a sentence). */
export class NoBaseImage extends Error {
  override name = "NoBaseImage";
}

/** The folder of cached base tarballs: `$XDG_CACHE_HOME/agent-test` or `~/.cache/agent-test`. */
export function cacheDir(): string {
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  const home = Deno.env.get("HOME") ?? "/root";
  return `${xdg && xdg.startsWith("/") ? xdg : `${home}/.cache`}/agent-test`;
}

/**
 * Makes sure podman has `name` (e.g. `denoland/deno:debian-2.9.6`): present with this
 * recipe's label, else imported from the cached tarball, else built.
 *
 * @throws {NoBaseImage} when it cannot be made here (not root, no debootstrap, another Deno).
 */
export async function ensureBaseImage(name: string): Promise<BaseImage> {
  const started = performance.now();
  const deno = name.match(/^denoland\/deno:debian-(\d+\.\d+\.\d+)$/)?.[1];
  if (deno === undefined) throw new NoBaseImage(`the base ${name} is not Deno's Debian image`);
  const label = await podman([
    "image",
    "inspect",
    "--format",
    `{{index .Labels "${LABEL}"}}`,
    name,
  ]);
  if (label.code === 0 && label.stdout.trim() === recipeKey(deno)) {
    return { name, how: "present", ms: performance.now() - started };
  }
  if (Deno.version.deno !== deno) {
    throw new NoBaseImage(`the base needs Deno ${deno}, and this is Deno ${Deno.version.deno}`);
  }
  const tarball = `${cacheDir()}/${recipeKey(deno)}.tar`;
  let debootstrapMs: number | undefined;
  if (!await exists(tarball)) debootstrapMs = await buildRootTarball(tarball);
  const change = [
    "ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "ENV=DENO_DIR=/deno-dir/",
    "ENV=DENO_INSTALL_ROOT=/usr/local",
    `ENV=DENO_VERSION=${deno}`,
    `LABEL=${LABEL}=${recipeKey(deno)}`,
    // As in Deno's image, a command of its own that a Dockerfile's ENTRYPOINT must reset.
    'ENTRYPOINT ["deno"]',
    'CMD ["--version"]',
  ].flatMap((c) => ["--change", c]);
  const imported = await podman(["import", "--quiet", ...change, tarball, qualified(name)]);
  if (imported.code !== 0) {
    throw new NoBaseImage(`podman import of the base failed: ${firstError(imported)}`);
  }
  return {
    name,
    how: debootstrapMs === undefined ? "cached" : "built",
    ms: performance.now() - started,
    ...(debootstrapMs === undefined ? {} : { debootstrapMs }),
  };
}

function recipeKey(deno: string): string {
  return `deno-${deno}-debian-${DEBIAN_RELEASE}-minbase-r${RECIPE}`;
}

/** debootstrap, slim, Deno and its user; the tarball written atomically. Returns its ms. */
async function buildRootTarball(tarball: string): Promise<number> {
  if (Deno.uid() !== 0) {
    throw new NoBaseImage("making the base image needs root (debootstrap), and this is not root");
  }
  if (!await onPath("debootstrap")) {
    throw new NoBaseImage("making the base image needs debootstrap, which is not installed");
  }
  const dir = cacheDir();
  await Deno.mkdir(dir, { recursive: true });
  // Under the cache folder, not the system temp folder: a root file system is big, and
  // the finally below removes it whatever happens.
  const work = await Deno.makeTempDir({ dir, prefix: ".base-" });
  try {
    const root = `${work}/rootfs`;
    const t0 = performance.now();
    await run("debootstrap", [
      "--variant=minbase",
      DEBIAN_RELEASE,
      root,
      await debianMirror(),
    ]);
    const ms = performance.now() - t0;
    // What debian:bookworm-slim leaves out: package files, lists, documentation, locales.
    for (
      const folder of [
        "var/cache/apt/archives",
        "var/lib/apt/lists",
        "usr/share/doc",
        "usr/share/man",
        "usr/share/info",
        "usr/share/locale",
      ]
    ) {
      await emptyFolder(`${root}/${folder}`);
    }
    await Deno.copyFile(Deno.execPath(), `${root}/usr/bin/deno`);
    await Deno.chmod(`${root}/usr/bin/deno`, 0o755);
    await run("chroot", [root, "useradd", "--uid", "1993", "--user-group", "deno"]);
    await Deno.mkdir(`${root}/deno-dir`);
    await Deno.chown(`${root}/deno-dir`, 1993, 1993);
    const partial = `${work}/rootfs.tar`;
    await run("tar", ["--numeric-owner", "-C", root, "-cf", partial, "."]);
    await Deno.rename(partial, tarball);
    return ms;
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

/** The Debian mirror apt uses here (`/etc/apt/sources.list*`), else Debian's own. */
export async function debianMirror(): Promise<string> {
  const texts = [await Deno.readTextFile("/etc/apt/sources.list").catch(() => "")];
  const dir = "/etc/apt/sources.list.d";
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && /\.(list|sources)$/.test(entry.name)) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  for (const name of names.sort()) texts.push(await Deno.readTextFile(`${dir}/${name}`));
  return mirrorFrom(texts.join("\n\n")) ?? "http://deb.debian.org/debian";
}

/**
 * The first Debian archive (not the security one) for {@linkcode DEBIAN_RELEASE} in apt's
 * sources, one-line (`deb URI SUITE ...`) or deb822 (`URIs:` and `Suites:`) format.
 */
export function mirrorFrom(text: string): string | undefined {
  for (const line of text.split("\n")) {
    const m = line.match(/^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/);
    if (m && m[2] === DEBIAN_RELEASE && !/security/.test(m[1]!)) return m[1];
  }
  for (const stanza of text.split(/\n\s*\n/)) {
    const field = (name: string) =>
      stanza.match(new RegExp(`^${name}:\\s*(.+)$`, "mi"))?.[1]?.trim().split(/\s+/) ?? [];
    if (!field("Types").includes("deb")) continue;
    if (!field("Suites").includes(DEBIAN_RELEASE)) continue;
    const uri = field("URIs").find((u) => !/security/.test(u));
    if (uri !== undefined) return uri;
  }
  return undefined;
}

async function emptyFolder(path: string): Promise<void> {
  try {
    for await (const entry of Deno.readDir(path)) {
      await Deno.remove(`${path}/${entry.name}`, { recursive: true });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

async function run(program: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(program, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" / ");
    throw new NoBaseImage(
      `${program} failed while making the base image (exit ${out.code}): ${text}`,
    );
  }
}

async function onPath(program: string): Promise<boolean> {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
    if (await exists(`${dir}/${program}`)) return true;
  }
  return false;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Whether podman can run containers here, or why not (one sentence). */
export type Engine = { ok: true; base: BaseImage } | { ok: false; reason: string };

/**
 * Probes once: podman on the path, the base image (made when missing), and
 * `podman run --rm --network=host <base> true`.
 */
export async function probeEngine(base: string): Promise<Engine> {
  let version: PodmanResult;
  try {
    version = await podman(["--version"]);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { ok: false, reason: "podman is not installed" };
    }
    throw error;
  }
  if (version.code !== 0) return { ok: false, reason: `podman fails: ${firstError(version)}` };
  let image: BaseImage;
  try {
    image = await ensureBaseImage(base);
  } catch (error) {
    if (error instanceof NoBaseImage) return { ok: false, reason: error.message };
    throw error;
  }
  // The base's entry point is deno: `true` replaces it.
  const run = await podman([
    "run",
    "--rm",
    "--network=host",
    "--entrypoint",
    "true",
    qualified(base),
  ]);
  if (run.code !== 0) {
    return { ok: false, reason: `podman cannot run a container here: ${firstError(run)}` };
  }
  return { ok: true, base: image };
}
