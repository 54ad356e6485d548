/**
 * `deno task bench email`: the e-mail channel against a real Dovecot (IDLE) and a
 * loopback SMTP server, through `agent hub run` with the fake model (no model time).
 *
 * 1. Delivery → answer sent, 50 mails one after another: p50 and p95. Goal: p50 under
 *    1.5 s above the model's time (here 0).
 * 2. Idle CPU of the hub with the channel connected (IDLE), over 20 s, from
 *    `/proc/<pid>/stat`, beside the same hub without the channel. Goal: under 0.5% of a
 *    core (`/proc` counts in 10 ms ticks: a few ticks either way on this shared machine).
 * 3. RSS the channel adds: a hub with `[email]` against the same home without it, each
 *    idle 5 s after start: connected with no mail yet, again after one mail was read
 *    and refused (the MIME reader loads with the first mail), and 5 s after the first
 *    answer and the 20th (the SMTP sender loads with the first answer). Goal: under
 *    10 MiB. The RSS after the 50 answers is printed too.
 *
 * @module
 */
import { percentile } from "./_stats.ts";
import { cleanup } from "../cli/_run.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { startDovecot } from "../email/_dovecot.ts";
import { startSmtp } from "../email/_smtp.ts";
import { mailText } from "../email/_mails.ts";
import { AGENT, emailHome, OWNER, OWNER_PROVEN, PASSWORD, runEmailHub } from "../email/_hub.ts";
import { until } from "../_poll.ts";

const MAILS = 50;
const IDLE_S = 20;
const MIB = 1024 * 1024;

function print(what: string, value: string): void {
  console.log(`${what.padEnd(48)} ${value}`);
}

async function rssOf(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) * 1024;
}

/** CPU seconds (user + system) of `pid` so far. */
async function cpuOf(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 (1-based), 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const dovecot = await startDovecot([{ name: AGENT, password: PASSWORD }]);
const smtp = await startSmtp(AGENT, PASSWORD);
try {
  const { home, port } = await emailHome(dovecot, smtp, { email: ["max_per_hour = 1000"] });

  // 3a. The same home without the channel.
  const plainToml = (await Deno.readTextFile(`${home}/agent.toml`)).replace(
    /\n\[email\][\s\S]*$/,
    "\n",
  );
  const { home: plainHome, port: plainPort } = await emailHome(dovecot, smtp);
  await Deno.writeTextFile(
    `${plainHome}/agent.toml`,
    plainToml.replace(/^port = \d+$/m, `port = ${plainPort}`),
  );
  const plain = spawnHubProcess(plainHome);
  await untilHub(plainPort);
  await new Promise((r) => setTimeout(r, 5_000));
  const rssPlain = await rssOf(plain.pid);
  const plainCpu0 = await cpuOf(plain.pid);
  const plainT0 = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  const plainShare = (await cpuOf(plain.pid) - plainCpu0) / ((performance.now() - plainT0) / 1000);
  plain.kill("SIGTERM");
  await plain.status;

  const hub = await runEmailHub(home, port);
  const pid = hub.child.pid;
  try {
    await new Promise((r) => setTimeout(r, 5_000));
    const rssConnected = await rssOf(pid);
    // 2. Idle CPU with IDLE running, before any mail.
    const cpu0 = await cpuOf(pid);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const share = (await cpuOf(pid) - cpu0) / ((performance.now() - t0) / 1000);
    // One refused mail loads the MIME parser without a turn.
    await dovecot.deliver(
      AGENT,
      mailText({ from: "x@example.net", subject: "x", id: "<r0@x>", body: "x" }),
    );
    await untilHub(port, (s) => s.email.refused === 1);
    await new Promise((r) => setTimeout(r, 5_000));
    const rssEmail = await rssOf(pid);

    // 1. Latency, one mail at a time.
    const latencies: number[] = [];
    const rssAnswered: number[] = [];
    for (let i = 0; i < MAILS; i++) {
      const before = smtp.received.length;
      const sentAt = Date.now();
      await dovecot.deliver(
        AGENT,
        mailText({
          from: OWNER,
          subject: `q ${i}`,
          id: `<lat${i}@example.com>`,
          authResults: [OWNER_PROVEN],
          body: `question ${i}`,
        }),
      );
      await until("the answer", () => smtp.received.length > before);
      latencies.push(smtp.received.at(-1)!.at - sentAt);
      // RSS after the first answer (the SMTP sender loaded) and after 20, each once the
      // hub has settled; the latencies are each from their own delivery, so the pause
      // does not count in them.
      if (i === 0 || i === 19) {
        await new Promise((r) => setTimeout(r, 5_000));
        rssAnswered.push(await rssOf(pid));
      }
    }
    const rssAfter = await rssOf(pid);

    const p50 = percentile(latencies, 50);
    print("delivery -> answer sent p50 (ms)", p50.toFixed(0));
    print("delivery -> answer sent p95 (ms)", percentile(latencies, 95).toFixed(0));
    print("latency goal (p50 < 1500 ms above model time 0)", p50 < 1500 ? "met" : "MISSED");
    print(`idle cpu without [email], ${IDLE_S} s (% of a core)`, (plainShare * 100).toFixed(3));
    print(`idle cpu with [email] (IDLE), ${IDLE_S} s (% of a core)`, (share * 100).toFixed(3));
    print("idle cpu goal (< 0.5% with the channel)", share < 0.005 ? "met" : "MISSED");
    print("hub RSS without [email] (MiB)", (rssPlain / MIB).toFixed(1));
    print("hub RSS with [email], connected (MiB)", (rssConnected / MIB).toFixed(1));
    print("RSS the channel adds, connected (MiB)", ((rssConnected - rssPlain) / MIB).toFixed(1));
    print("hub RSS with [email], a mail read (MiB)", (rssEmail / MIB).toFixed(1));
    print("RSS the channel adds, a mail read (MiB)", ((rssEmail - rssPlain) / MIB).toFixed(1));
    // The hub without the channel ran no turn: past the first answer these figures hold
    // the turns' own memory (conversations, the ledger) as well as the channel's.
    for (const [n, rss] of [[1, rssAnswered[0]!], [20, rssAnswered[1]!]] as const) {
      print(`hub RSS with [email], ${n} answered (MiB)`, (rss / MIB).toFixed(1));
      print(`RSS added, ${n} answered, with the turns (MiB)`, ((rss - rssPlain) / MIB).toFixed(1));
    }
    print(
      "RSS goal (< 10 MiB: connected / a mail read / 1 answered)",
      [rssConnected, rssEmail, rssAnswered[0]!].map((r) =>
        r - rssPlain < 10 * MIB ? "met" : "MISSED"
      )
        .join(" / "),
    );
    print(`hub RSS after ${MAILS} answers (MiB)`, (rssAfter / MIB).toFixed(1));
  } finally {
    await hub.stop();
  }
} finally {
  await smtp.stop();
  await dovecot.stop();
  await cleanup();
}
