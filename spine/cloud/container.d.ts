// The part of `@cloudflare/containers` the spine uses. The package's own typings import
// `cloudflare:workers`, which only the Workers runtime resolves.

/** Options of `startAndWaitForPorts`. */
export interface StartAndWaitForPortsOptions {
  ports?: number | number[];
  cancellationOptions?: {
    instanceGetTimeoutMS?: number;
    portReadyTimeoutMS?: number;
    waitInterval?: number;
  };
}

/** A container-enabled Durable Object. */
export declare class Container<Env = unknown> {
  constructor(ctx: unknown, env: Env);
  defaultPort?: number;
  sleepAfter: string | number;
  envVars: Record<string, string>;
  env: Env;
  startAndWaitForPorts(options: StartAndWaitForPortsOptions): Promise<void>;
  containerFetch(url: string, init?: RequestInit, port?: number): Promise<Response>;
  fetch(request: Request): Promise<Response>;
}
