/**
 * `agent net spine init DIR [--cloud]` and `agent net spine deploy DIR`: the CLI face of
 * the spine kit (`@agent/kit/spine`), worded in the UI language. For a cloud project init
 * writes the brain's `agent.js` beside its Dockerfile (this agent's own bundle, made when
 * it runs from source, or `--bundle FILE`; see `brainBundle()`), and the deploy gathers
 * the secrets the brain needs from the hub's `.env` and environment (see
 * `_spine_cloud_secrets.ts`).
 *
 * @module
 */
import type { CommandContext } from "../context.ts";
import { UsageError, UserError } from "../command.ts";
import {
  brainBundle,
  BrainBundleError,
  DEPLOY_STEPS,
  deploySpine,
  type DeployStep,
  initSpineProject,
  type Runner,
  SpineDeployError,
  SpineInitError,
} from "@agent/kit/spine";
import { readEnvFile, setEnvKey, VERSION } from "@agent/hub/base";
import { t } from "./_spine_messages.ts";
import { cloudSecrets } from "./_spine_cloud_secrets.ts";

/** Options for {@linkcode spineAction}. */
export interface SpineActionOptions {
  /** How deploy runs programs (tests pass their own). */
  run?: Runner;
}

/** `agent net spine <init|deploy> DIR [options]`. */
export async function spineAction(
  ctx: CommandContext,
  args: string[],
  opts: Record<string, unknown>,
  options: SpineActionOptions = {},
): Promise<number> {
  const [action = "", dir] = args;
  if (action !== "init" && action !== "deploy") {
    throw new UsageError(t(ctx.lang, "unknown_action", { action }));
  }
  if (dir === undefined || dir === "") {
    throw new UsageError(t(ctx.lang, "need_dir", { action }));
  }
  const address = typeof opts.address === "string" ? opts.address : undefined;
  return action === "init"
    ? await init(ctx, dir, address, opts)
    : await deploy(ctx, dir, address, options.run);
}

async function init(
  ctx: CommandContext,
  dir: string,
  address: string | undefined,
  opts: Record<string, unknown>,
): Promise<number> {
  const str = (value: unknown) => typeof value === "string" ? value : undefined;
  const cloud = opts.cloud === true;
  const file = str(opts.bundle);
  if (file !== undefined && !cloud) throw new UsageError(t(ctx.lang, "bundle_needs_cloud"));
  let result;
  try {
    result = await initSpineProject(dir, {
      address,
      ipLimitId: str(opts.ipLimitId),
      senderLimitId: str(opts.senderLimitId),
      cloud,
      ...(cloud
        ? { bundle: async () => (await brainBundle({ file, version: VERSION })).bytes }
        : {}),
    });
  } catch (error) {
    if (error instanceof BrainBundleError) {
      const sentence = t(ctx.lang, `bundle_${error.problem}`, {
        file: error.subject,
        detail: error.subject,
      });
      // A --bundle FILE that is not one is a usage error; the rest are not the user's typing.
      const usage = error.problem !== "compiled" && error.problem !== "bundle_failed";
      throw usage ? new UsageError(sentence) : new UserError(sentence);
    }
    if (!(error instanceof SpineInitError)) throw error;
    const sentence = t(ctx.lang, error.problem, { dir: error.subject, value: error.subject });
    throw error.isUsage ? new UsageError(sentence) : new UserError(sentence);
  }
  ctx.out(t(ctx.lang, "written", { dir: result.dir }));
  for (const file of result.files) ctx.out(`  ${file}`);
  ctx.out(
    address === undefined ? t(ctx.lang, "written_default") : t(ctx.lang, "written_address", {
      address,
      route: result.customDomain ? t(ctx.lang, "written_route") : "",
    }),
  );
  if (result.cloud) ctx.out(t(ctx.lang, "written_cloud"));
  ctx.out(t(ctx.lang, "next"));
  ctx.out(t(ctx.lang, "next_deploy", {
    dir: result.dir,
    address: address === undefined ? "" : ` --address ${address}`,
  }));
  if (result.cloud) {
    ctx.out(t(ctx.lang, "next_push"));
  } else {
    ctx.out(t(ctx.lang, "next_init"));
    ctx.out(t(ctx.lang, "next_publish"));
  }
  return 0;
}

async function deploy(
  ctx: CommandContext,
  dir: string,
  address: string | undefined,
  run: Runner | undefined,
): Promise<number> {
  const envFile = ctx.paths.envFile;
  let result;
  try {
    result = await deploySpine(dir, {
      step: (step) => ctx.out(t(ctx.lang, `step_${step}`)),
      output: (line) => {
        if (line.trim() !== "") ctx.out(`      ${line}`);
      },
      readToken: async () => {
        const fromFile = (await readEnvFile(envFile)).AGENT_SPINE_TOKEN;
        const token = fromFile || ctx.env.AGENT_SPINE_TOKEN;
        // A token only in the shell is written down too, so the hub finds it next time.
        if (token && !fromFile) await setEnvKey(envFile, "AGENT_SPINE_TOKEN", token);
        if (token) ctx.out(t(ctx.lang, "token_kept", { file: envFile }));
        return token || undefined;
      },
      writeEnv: async (name, value) => {
        await setEnvKey(envFile, name, value);
        if (name === "AGENT_SPINE_TOKEN") ctx.out(t(ctx.lang, "token_new", { file: envFile }));
      },
      cloudSecrets: () => cloudSecrets(ctx),
      secretSet: (name) => ctx.out(t(ctx.lang, "secret_set", { name })),
    }, {
      address,
      messengerApiRoot: ctx.env.MESSENGER_API_ROOT,
      ...(run ? { run } : {}),
    });
  } catch (error) {
    if (error instanceof SpineDeployError) throw deployFailure(ctx, error);
    throw error;
  }
  ctx.out(t(ctx.lang, "deployed", { url: result.url, file: envFile }));
  if (result.spineUrlFilled) ctx.out(t(ctx.lang, "spine_url_filled", { url: result.url }));
  if (result.webhook) ctx.out(t(ctx.lang, "webhook_set", { url: result.url }));
  ctx.out(t(ctx.lang, "next"));
  if (result.cloud) {
    ctx.out(t(ctx.lang, "next_push"));
    // The brain joins the network with the identity deploy put up; without one, the
    // identity comes first and a second deploy puts it up.
    if (result.secrets.includes("AGENT_NET_IDENTITY")) ctx.out(t(ctx.lang, "next_publish"));
    else ctx.out(t(ctx.lang, "next_cloud_identity", { dir }));
  } else {
    ctx.out(t(ctx.lang, "next_init"));
    ctx.out(t(ctx.lang, "next_publish"));
  }
  return 0;
}

function deployFailure(ctx: CommandContext, error: SpineDeployError): UserError {
  if (error.problem === "bad_address") {
    return new UsageError(t(ctx.lang, "bad_address", { value: error.detail }));
  }
  const n = stepNumber(error.step);
  const vars = { n: String(n), step: t(ctx.lang, `s_${error.step}`), detail: error.detail };
  return new UserError(t(ctx.lang, `fail_${error.problem}`, vars));
}

/** The spec's step number of each of {@linkcode DEPLOY_STEPS}. */
export function stepNumber(step: DeployStep): number {
  // install, deploy and migrate make the spec's step 2; the cloud secrets join step 3,
  // filling SPINE_URL and the webhook step 4.
  return [1, 2, 2, 2, 3, 3, 4, 4, 4][DEPLOY_STEPS.indexOf(step)] ?? 1;
}
