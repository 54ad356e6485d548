/**
 * Model providers: `vendor-a` … `vendor-d`, `local-runtime` and `fake`, each speaking
 * its vendor's real API through the AI SDK.
 *
 * - {@linkcode createModel} builds a role's model from its provider, model id and
 *   credentials (the Authentication table).
 * - {@linkcode applyTarget} puts the token cap, reasoning effort and prompt-cache
 *   markers on one call.
 * - {@linkcode probeConnect} is the 3-second TCP connect probe behind failover.
 * - {@linkcode listPulledModels} asks the local server which models it has.
 *
 * @module
 */
export * from "./target.ts";
export * from "./fake.ts";
export * from "./create_model.ts";
export * from "./call_options.ts";
export * from "./connect_probe.ts";
export * from "./local_runtime.ts";
export * from "./aws_profile.ts";
