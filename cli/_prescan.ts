/**
 * A small scan of the global options before commander is loaded: it finds the
 * subcommand (so only that command's module is imported) and lets `agent version`
 * skip commander altogether.
 *
 * @module
 */

/** What the scan found. */
export interface Prescan {
  home?: string;
  profile?: string;
  lang?: string;
  verbose: boolean;
  help: boolean;
  /** The first word after the global options, if any. */
  command?: string;
  /** The words after {@linkcode command}. */
  rest: string[];
  /**
   * `"version"` when `agent [globals] version` has nothing after it; `"version_flag"`
   * for `agent [globals] --version` (or `-V`) alone.
   */
  fast?: "version" | "version_flag";
}

const WITH_VALUE = new Set(["--home", "--profile", "--lang"]);

/** Scans the global options and the subcommand name; never throws. */
export function prescan(argv: readonly string[]): Prescan {
  const out: Prescan = { verbose: false, help: false, rest: [] };
  let versionFlag = false;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") out.help = true;
    else if ((arg === "--version" || arg === "-V") && i === argv.length - 1) {
      versionFlag = true;
    } else if (arg === "-v" || arg === "--verbose") out.verbose = true;
    else if (WITH_VALUE.has(arg)) {
      const value = argv[i + 1];
      if (value === undefined) return out;
      set(out, arg, value);
      i++;
    } else if (arg.startsWith("--") && arg.includes("=")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(0, eq);
      if (!WITH_VALUE.has(name)) return out;
      set(out, name, arg.slice(eq + 1));
    } else if (arg.startsWith("-")) {
      return out;
    } else {
      out.command = arg;
      break;
    }
  }
  out.rest = argv.slice(i + 1);
  // A bad global value must reach the full path, which refuses it with exit 2.
  const badValue = (out.lang !== undefined && out.lang !== "en" && out.lang !== "tr") ||
    out.home?.trim() === "" || out.profile?.trim() === "";
  if (out.command === "version" && out.rest.length === 0 && !out.help && !badValue) {
    out.fast = "version";
  }
  if (versionFlag && !out.help && !badValue) out.fast = "version_flag";
  return out;
}

function set(out: Prescan, name: string, value: string): void {
  if (name === "--home") out.home = value;
  else if (name === "--profile") out.profile = value;
  else out.lang = value;
}
