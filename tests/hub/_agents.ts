/**
 * Two or more agents on one machine for end-to-end network tests: each has its own
 * spine on workerd (Miniflare), its own home and data directory, an identity, and a
 * running network service with shrunken timings.
 *
 * @module
 */
import { type RunningSpine, startSpine } from "../spine/_harness.ts";
import { defaultConfig, turnAnswerer } from "@agent/hub";
import type { AgentConfig, RoleConfig } from "@agent/hub/config";
import { Logger } from "@agent/hub/base";
import { type AgentPaths, resolvePaths } from "@agent/hub/base";
import {
  type Handled,
  initIdentity,
  type NetLogEntry,
  type NetNode,
  NetService,
  type NetTimings,
  openNetwork,
  type Update,
} from "@agent/hub";
import { loadSubAgentDirectory } from "@agent/hub";
import { until } from "../_poll.ts";

/** One running test agent. */
export interface TestAgent {
  name: string;
  spine: RunningSpine;
  token: string;
  home: string;
  paths: AgentPaths;
  config: AgentConfig;
  env: Record<string, string>;
  node: NetNode;
  service: NetService;
  address: string;
  logger: Logger;
  /** Every handled or dropped envelope, in order. */
  handled: { result: Handled; update: Update }[];
  /** Resolves once `n` envelopes were handled (or dropped) in total. */
  waitHandled(n: number, timeoutMs?: number): Promise<void>;
  /** Stops the service (the spine keeps running until {@linkcode TestAgent.close}). */
  stopService(): Promise<void>;
  /** Starts a fresh service on the same node (after {@linkcode TestAgent.stopService}). */
  restartService(options?: StartAgentOptions): Promise<void>;
  close(): Promise<void>;
}

/** Options for {@linkcode startAgent}. */
export interface StartAgentOptions {
  /** The fake model's replies for `brain`. @default ["Okay."] */
  replies?: string[];
  /** A role to use instead of the fake one. */
  brain?: RoleConfig;
  link?: "auto" | "websocket" | "poll";
  timings?: Partial<NetTimings>;
  /** Extra `.env` values. */
  env?: Record<string, string>;
  /** Extra files under the home (`persona/subs/chef.md`...). */
  files?: Record<string, string>;
  /** Reuse this spine instead of starting one. */
  spine?: RunningSpine;
  /** `[net]` overrides. */
  net?: Partial<AgentConfig["net"]>;
  /** Do not start the service. */
  noService?: boolean;
}

/** Test timings: fast backoff, short poll. */
export const FAST: Partial<NetTimings> = {
  backoffBaseMs: 50,
  backoffMaxMs: 400,
  pollTimeoutSeconds: 2,
  stableMs: 2000,
};

/** Starts an agent with its own spine. */
export async function startAgent(
  name: string,
  options: StartAgentOptions = {},
): Promise<TestAgent> {
  const token = `tok-${crypto.randomUUID()}`;
  const spine = options.spine ?? await startSpine({ hubToken: token });
  const spineToken = options.env?.AGENT_SPINE_TOKEN ?? token;
  const home = await Deno.makeTempDir({ prefix: `agent-${name}-` });
  const paths = resolvePaths({ env: { AGENT_HOME: home } });
  await Deno.mkdir(`${home}/persona/subs`, { recursive: true });
  await Deno.writeTextFile(`${home}/persona/persona.md`, `You are ${name}'s agent.\n`);
  await Deno.writeTextFile(`${home}/persona/net.md`, `${name} likes tea. Public.\n`);
  await Deno.writeTextFile(
    `${home}/persona/user.md`,
    `${name}'s bank PIN is SECRET-USER-MD-${name}.\n`,
  );
  for (const [file, text] of Object.entries(options.files ?? {})) {
    await Deno.mkdir(`${home}/${file}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${home}/${file}`, text);
  }
  const config = defaultConfig();
  const fake: RoleConfig = {
    provider: "fake",
    model_id: "fake-model",
    max_tokens: 256,
    params: { replies: options.replies ?? ["Okay."] },
  };
  config.models.roles = { brain: options.brain ?? fake, fast: fake };
  config.net = { ...config.net, name, ...options.net };
  const env: Record<string, string> = {
    AGENT_HOME: home,
    AGENT_SPINE_URL: spine.url,
    AGENT_SPINE_TOKEN: token,
    AGENT_NET_ALLOW_INSECURE: "1",
    ...options.env,
  };
  await initIdentity(paths, env);
  const logger = new Logger({ file: paths.logFile, stderr: "off" });
  const opened = await openNetwork({ config, env, paths, logger });
  if (!opened.ok) throw new Error(`test agent ${name}: missing ${opened.missing}`);
  const node = opened.node;
  const handled: TestAgent["handled"] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const subs = loadSubAgentDirectory(config, paths);
  const makeService = (o: StartAgentOptions) =>
    new NetService({
      node,
      answer: turnAnswerer({ config, env, paths, subs, logger }),
      link: o.link ?? "auto",
      timings: { ...FAST, ...o.timings },
      onHandled: (result, update) => {
        handled.push({ result, update });
        for (const w of waiters.filter((w) => handled.length >= w.n)) w.resolve();
      },
    });
  let service = makeService(options);
  const address = await node.address();
  // Published before the test starts, so a peer's first card fetch finds it.
  await node.publish();
  if (!options.noService) {
    service.start();
    await until(`${name}'s service`, () => service.status().ready);
  }
  const agent: TestAgent = {
    name,
    spine,
    token: spineToken,
    home,
    paths,
    config,
    env,
    node,
    get service() {
      return service;
    },
    address,
    logger,
    handled,
    waitHandled(n, timeoutMs = 30_000) {
      if (handled.length >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `${name}: ${handled.length} handled, waited for ${n}: ${
                  JSON.stringify(handled.map((h) => h.result))
                }`,
              ),
            ),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    stopService: () => service.stop(),
    async restartService(o = options) {
      await service.stop();
      service = makeService(o);
      service.start();
    },
    async close() {
      await service.stop();
      if (options.spine === undefined) await spine.stop();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
  return agent;
}

/** `a` asks `b`, `b` accepts, and both see it: two accepted contacts. */
export async function connect(a: TestAgent, b: TestAgent, note = "hi"): Promise<void> {
  await a.node.add(b.address, note);
  await until(
    `${b.address} sees the request`,
    async () => (await b.node.state.contact(a.address))?.state === "pending_in",
  );
  await b.node.accept(a.address);
  await until(
    `${a.address} sees the accept`,
    async () => (await a.node.state.contact(b.address))?.state === "accepted",
  );
}

/**
 * Reads `agent`'s network log (`node.state.log()`) only when its file changed since the
 * last read (size, time or inode), else hands back the last reading. A test that polls a
 * log every 20 ms while a hub works for tens of seconds read and parsed it thousands of
 * times: seconds of processor time, for a file that changes a few times a second.
 */
export function logReader(
  agent: Pick<TestAgent, "node" | "paths">,
): () => Promise<NetLogEntry[]> {
  const file = `${agent.paths.netDir}/log.jsonl`;
  let seen = "";
  let last: NetLogEntry[] = [];
  return async () => {
    const info = await Deno.stat(file).catch(() => undefined);
    const now = info ? `${info.ino}:${info.size}:${info.mtime?.getTime()}` : "";
    // Read after the stat: a write in between is read now and seen again next time. No
    // file yet (or a store without one): read each time.
    if (now === "" || now !== seen) {
      last = await agent.node.state.log();
      seen = now;
    }
    return last;
  };
}
