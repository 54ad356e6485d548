/**
 * The spine kit for the command line: writing a spine project from the committed kit
 * (`agent net spine init`) and deploying it (`agent net spine deploy`). Light: no
 * bundler, no Miniflare.
 *
 * @module
 */
export * from "./spine_init.ts";
export * from "./brain_bundle.ts";
export * from "./spine_deploy.ts";
export * from "./spine_deploy_cloud.ts";

/** The version of the spine in the kit (its `VERSION` file, shipped in `_spine_kit.ts`). */
export async function kitSpineVersion(): Promise<string> {
  return (await import("./_spine_kit.ts")).SPINE_KIT_VERSION;
}
