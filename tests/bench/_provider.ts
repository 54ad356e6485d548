/**
 * A loopback provider in vendor-a's wire format in a process of its own
 * (`_vendor_process.ts`), so a benchmark measures only the hub side's memory: its URL,
 * the requests it saw (model and body bytes) and a way to stop it.
 *
 * @module
 */

/** A started provider process. */
export interface ProviderProcess {
  url: string;
  /** Requests seen since the caller last emptied the list. */
  seen: { model: string; bytes: number }[];
  close(): Promise<void>;
}

/** Starts the provider answering every request with `answer`. */
export async function startProvider(answer: string): Promise<ProviderProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      new URL("./_vendor_process.ts", import.meta.url).pathname,
      answer,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const seen: { model: string; bytes: number }[] = [];
  let url: ((url: string) => void) | undefined;
  const started = new Promise<string>((resolve) => url = resolve);
  const reading = (async () => {
    let rest = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith("http")) url!(line);
        else {
          const [model, bytes] = line.split(" ");
          seen.push({ model: model!, bytes: Number(bytes) });
        }
      }
    }
  })();
  return {
    url: await started,
    seen,
    async close() {
      child.kill("SIGTERM");
      await child.status;
      await reading;
    },
  };
}
