/**
 * The one HTTP client of a spine ({@linkcode SpineHttp}) and its one error
 * ({@linkcode SpineError}). Each caller keeps its routes in its own module (the network
 * service's `hub/network/spine_client.ts`, the document store, the session store,
 * `agent cloud`'s files) and sends them through here.
 *
 * @module
 */
export * from "./error.ts";
export * from "./transport.ts";
