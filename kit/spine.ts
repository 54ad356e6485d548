/**
 * The spine kit for the command line: writing a spine project from the committed kit
 * (`agent net spine init`) and deploying it (`agent net spine deploy`). Light: no
 * bundler, no Miniflare.
 *
 * The door names every export: what `agent net spine init|deploy` and `agent doctor` use,
 * and the types those functions take and return.
 *
 * @module
 */

// `agent net spine init`: the committed kit written out as a spine project.
export {
  initSpineProject,
  SpineInitError,
  type SpineInitOptions,
  type SpineInitProblem,
  type SpineInitResult,
  type SpineKit,
  spineKitFiles,
} from "./spine_init.ts";

// The cloud brain's bundle, built from the installed CLI for `deploy --cloud`.
export {
  type BrainBundle,
  brainBundle,
  BrainBundleError,
  type BrainBundleOptions,
  type BrainBundleProblem,
} from "./brain_bundle.ts";

// `agent net spine deploy`: its steps, the deploy itself and the command runner it
// takes (a test passes its own), and which credentials a cloud deploy puts as secrets.
export {
  DEPLOY_STEPS,
  type DeployHooks,
  type DeployOptions,
  type DeployProblem,
  type DeployResult,
  deploySpine,
  type DeployStep,
  SpineDeployError,
} from "./spine_deploy.ts";
export { type Runner, type RunOptions, type RunResult } from "./run_command.ts";
export { CLOUD_SECRET_ORDER } from "./spine_deploy_cloud.ts";

/** The version of the spine in the kit (its `VERSION` file, shipped in `_spine_kit.ts`). */
export async function kitSpineVersion(): Promise<string> {
  return (await import("./_spine_kit.ts")).SPINE_KIT_VERSION;
}
