/**
 * `agent`: a personal AI agent that runs on its owner's machine or cloud account,
 * spends its model budget carefully and talks to other agents over a signed,
 * end-to-end sealed network.
 *
 * @module
 */
export * as hub from "@agent/hub";
export * as net from "@agent/net";
