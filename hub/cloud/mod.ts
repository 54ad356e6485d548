/**
 * `agent cloud`: the file set between `AGENT_HOME` and a cloud-mode spine (push,
 * pull), the spine's health, files and brain, and the `agent.toml` keys `agent cloud
 * run` sets. The run itself, which starts the hub, is `hub/app/cloud_run.ts`.
 *
 * @module
 */
export * from "./file_set.ts";
export * from "./spine_files.ts";
export * from "./sync.ts";
export * from "./toml_keys.ts";
export * from "../cloud_target.ts";
