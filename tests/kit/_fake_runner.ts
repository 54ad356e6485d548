/**
 * A stand-in package runner for `agent net spine deploy`: `npx` and `npm` scripts put
 * first on PATH that record their argv and standard input and answer like wrangler
 * (`whoami --json` logged in or out, `deploy` writing its output file with a
 * workers.dev URL, `d1 migrations apply`, `secret put NAME` reading standard input).
 * They use shell builtins only, so a PATH holding nothing else still runs them.
 *
 * @module
 */

/** How the stand-in behaves, set through the environment of one run. */
export interface FakeRunnerBehaviour {
  /** `whoami --json` says logged in. @default true */
  loggedIn?: boolean;
  /** The step whose command exits 1. */
  fail?: "whoami" | "install" | "deploy" | "migrate" | "secret";
  /** `deploy` names no workers.dev URL. */
  noUrl?: boolean;
}

/** The e-mail the stand-in's `whoami` reports; it must never be printed. */
export const FAKE_EMAIL = "owner.secret@example.com";

/** The workers.dev URL the stand-in's `deploy` reports. */
export const FAKE_URL = "https://agent-spine.owner.workers.dev";

/** A folder with `npx` and `npm`, and the files they record into. */
export interface FakeRunner {
  /** The folder to put first on PATH. */
  bin: string;
  /** One line per call: the program and its arguments. */
  argvFile: string;
  /**
   * Everything given on standard input, one record per call that read it:
   * `secret put NAME:<value>`.
   */
  stdinFile: string;
  /** Variables that select `behaviour` for a run. */
  env(behaviour?: FakeRunnerBehaviour): Record<string, string>;
  /** The recorded calls. */
  calls(): Promise<string[]>;
  /** The recorded standard input. */
  stdin(): Promise<string>;
}

const NPX = `#!/bin/bash
printf 'npx %s\\n' "$*" >> "$FAKE_LOG/argv"
case "$*" in
  *"whoami --json"*)
    if [ "$FAKE_FAIL" = whoami ]; then echo "boom" >&2; exit 3; fi
    if [ "$FAKE_LOGGED_IN" = 1 ]; then
      printf '{"loggedIn":true,"authType":"OAuth Token","email":"${FAKE_EMAIL}","accounts":[{"id":"abc","name":"${FAKE_EMAIL}'"'"'s Account"}]}\\n'
      exit 0
    fi
    printf '{"loggedIn":false}\\n'
    echo "You are not authenticated. ${FAKE_EMAIL}" >&2
    exit 1
    ;;
  "wrangler deploy"*)
    echo " ⛅️ wrangler 4.86.0"
    echo "Total Upload: 43.34 KiB / gzip: 12.51 KiB"
    if [ "$FAKE_FAIL" = deploy ]; then echo "✘ [ERROR] A request to the API failed." >&2; exit 1; fi
    echo "Uploaded agent-spine (2.10 sec)"
    out="\${WRANGLER_OUTPUT_FILE_PATH:-/dev/null}"
    if [ "$FAKE_NO_URL" = 1 ]; then
      printf '{"type":"deploy","version":1,"worker_name":"agent-spine","targets":["schedule: * * * * *"]}\\n' >> "$out"
    else
      echo "  ${FAKE_URL}"
      printf '{"type":"wrangler-session","version":1,"wrangler_version":"4.86.0"}\\n{"type":"deploy","version":1,"worker_name":"agent-spine","targets":["${FAKE_URL}","schedule: * * * * *"]}\\n' >> "$out"
    fi
    echo "Current Version ID: 0000"
    ;;
  "wrangler d1 migrations apply DB --remote")
    echo "Migrations to be applied: 0001_cloud.sql"
    if [ "$FAKE_FAIL" = migrate ]; then echo "✘ [ERROR] D1 is unavailable" >&2; exit 1; fi
    echo "✅ Applied 1 migration."
    ;;
  "wrangler secret put "*)
    for name in "$@"; do :; done
    IFS= read -r -d '' secret
    printf 'secret put %s:%s\\n' "$name" "$secret" >> "$FAKE_LOG/stdin"
    echo "Enter a secret value: received $secret"
    if [ "$FAKE_FAIL" = secret ]; then echo "✘ [ERROR] could not put the secret" >&2; exit 1; fi
    echo "✨ Success! Uploaded secret $name"
    ;;
  *) echo "unexpected npx call: $*" >&2; exit 9 ;;
esac
`;

const NPM = `#!/bin/bash
printf 'npm %s\\n' "$*" >> "$FAKE_LOG/argv"
if [ "$FAKE_FAIL" = install ]; then echo "npm ERR! network" >&2; exit 1; fi
echo "added 42 packages in 2s"
`;

/** Writes the stand-in into a fresh folder. */
export async function fakeRunner(root: string): Promise<FakeRunner> {
  const bin = `${root}/bin`;
  const logDir = `${root}/log`;
  await Deno.mkdir(bin, { recursive: true });
  await Deno.mkdir(logDir, { recursive: true });
  await Deno.writeTextFile(`${bin}/npx`, NPX, { mode: 0o755 });
  await Deno.writeTextFile(`${bin}/npm`, NPM, { mode: 0o755 });
  const read = async (file: string) => {
    try {
      return await Deno.readTextFile(file);
    } catch {
      return "";
    }
  };
  return {
    bin,
    argvFile: `${logDir}/argv`,
    stdinFile: `${logDir}/stdin`,
    env(behaviour = {}) {
      return {
        PATH: bin,
        FAKE_LOG: logDir,
        FAKE_LOGGED_IN: behaviour.loggedIn === false ? "0" : "1",
        FAKE_FAIL: behaviour.fail ?? "",
        FAKE_NO_URL: behaviour.noUrl ? "1" : "0",
      };
    },
    async calls() {
      return (await read(`${logDir}/argv`)).split("\n").filter((line) => line !== "");
    },
    stdin() {
      return read(`${logDir}/stdin`);
    },
  };
}
