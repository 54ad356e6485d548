/**
 * How a person types this program, for the commands its sentences suggest: a checkout's
 * user runs `deno task agent …`, not `agent …` (issue 39 F24). Every line the command
 * line writes goes through {@linkcode asTyped}; a model's answer in chat does not.
 *
 * @module
 */

/**
 * How this program is typed: `deno task agent` when `deno task` started it from a
 * checkout (the task runner sets `INIT_CWD` and its user agent; `cli/main.ts` sits beside
 * the checkout's `deno.json` and `.git`), else `agent` (installed, compiled, bundled).
 */
export const INVOCATION: string = fromCheckout() ? "deno task agent" : "agent";

function fromCheckout(): boolean {
  const main = Deno.mainModule;
  if (!main.startsWith("file:") || !main.endsWith("/cli/main.ts")) return false;
  try {
    const task = Deno.env.get("INIT_CWD") !== undefined &&
      (Deno.env.get("npm_config_user_agent") ?? "").startsWith("deno/");
    if (!task) return false;
    Deno.statSync(new URL("../deno.json", main));
    Deno.statSync(new URL("../.git", main));
    return true;
  } catch {
    return false;
  }
}

/**
 * `text` with the commands it suggests (`'agent init'`, `` `agent net publish` ``) as
 * {@linkcode INVOCATION} types them: a checkout's user types `deno task agent …`.
 *
 * @example
 * ```ts
 * import { asTyped, INVOCATION } from "./invocation.ts";
 * const hint = asTyped("run 'agent init' to create it");
 * if (hint !== `run '${INVOCATION} init' to create it`) throw new Error(hint);
 * ```
 */
export function asTyped(text: string): string {
  if (INVOCATION === "agent") return text;
  return text.replace(/(['`])agent(?= )/g, `$1${INVOCATION}`);
}
