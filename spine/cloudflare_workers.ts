/**
 * Deno's view of workerd's built-in `cloudflare:workers` module (deno.json maps the
 * specifier here). Only type-checking and Deno unit tests load this file: the spine
 * bundle keeps `cloudflare:workers` external, so on workerd the runtime's own
 * `DurableObject` base class is used, which is what exposes a Durable Object's methods
 * over RPC.
 *
 * @module
 */
import type { DurableObjectState } from "@cloudflare/workers-types/index.ts";

/** The base class of Durable Objects whose public methods are called over RPC. */
export class DurableObject<Env = unknown> {
  /** The object's state and storage. */
  protected ctx: DurableObjectState;
  /** The Worker's bindings. */
  protected env: Env;

  constructor(ctx: DurableObjectState, env: Env) {
    this.ctx = ctx;
    this.env = env;
  }
}
