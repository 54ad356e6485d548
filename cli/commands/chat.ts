/**
 * `agent chat [--role ROLE] [--resume [ID]] [--session ID]`: the terminal chat.
 * Thin over `runChat` (`hub/app/terminal_chat.ts`); provider SDKs load only when this runs.
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import { writeAll } from "../context.ts";
import { Logger, UserError } from "@agent/hub/base";

/** `agent chat`. */
export const command: CommandModule = {
  name: "chat",
  summary: {
    en: "Chat with the agent in the terminal (or one message per line from a pipe).",
    tr: "Terminalde ajanla sohbet (ya da borudan satır başına bir mesaj).",
  },
  configure(cmd, lang) {
    const tr = lang === "tr";
    cmd
      .option(
        "--role <role>",
        tr ? "yanıtlayan rol (varsayılan brain)" : "the role that answers (default brain)",
      )
      .option(
        "--resume [id]",
        tr
          ? "bir oturumu sürdürür; kimliksiz: mesajı olan en son oturum"
          : "resume a session; bare: the most recent one with messages",
      )
      .option(
        "--session <id>",
        tr ? "bu oturumu açar ya da oluşturur" : "open or create this session",
      );
  },
  // `agent chat` alone (the tests run it dozens of times) skips loading commander.
  plainFlags: [],
  plainOptions: ["--role", "--session"],
  async run(ctx, _args, opts) {
    const config = await ctx.config();
    const {
      enabledTools,
      Ledger,
      loadComponents,
      PipedInput,
      runChat,
      startMcpServers,
      TerminalInput,
      unwritableHome,
    } = await import("@agent/hub/chat");
    // A read-only home is one sentence before anything opens (chat stores its sessions).
    const readOnly = unwritableHome(ctx.paths, ctx.lang, "agent chat");
    if (readOnly !== undefined) throw new UserError(readOnly, 1);
    const input = Deno.stdin.isTerminal() ? new TerminalInput() : new PipedInput();
    const encoder = new TextEncoder();
    const resume = opts.resume;
    let mcp: Awaited<ReturnType<typeof startMcpServers>>;
    try {
      return await chat();
    } finally {
      await mcp?.close();
    }
    async function chat() {
      return await runChat({
        config,
        env: ctx.env,
        paths: ctx.paths,
        lang: ctx.lang,
        profile: ctx.profile,
        // Degrade and failover warnings are the log's: the person reads the one sentence in
        // the UI language under the answer (with -v, the log lines come to stderr too).
        logger: ctx.verbose ? ctx.logger : new Logger({ file: ctx.paths.logFile, stderr: "ERROR" }),
        input,
        write: (text) => writeAll(Deno.stdout, encoder.encode(text)),
        // A pipe's line for a tool that did not run: the answer alone stays on stdout.
        writeError: (text) => writeAll(Deno.stderr, encoder.encode(text)),
        // A person at a terminal reads answers as Markdown wrapped at words.
        ...(Deno.stdout.isTerminal()
          ? {
            columns: () => {
              try {
                return Deno.consoleSize().columns;
              } catch {
                return 80;
              }
            },
            color: (ctx.env.NO_COLOR ?? "") === "",
          }
          : {}),
        role: typeof opts.role === "string" ? opts.role : undefined,
        resume: resume === true ? true : typeof resume === "string" ? resume : undefined,
        session: typeof opts.session === "string" ? opts.session : undefined,
        openLedger: () => Ledger.openForCalls(ctx.paths.ledgerFile),
        tools: async () => {
          mcp = await startMcpServers({
            config,
            env: ctx.env,
            paths: ctx.paths,
            lang: ctx.lang,
            logger: ctx.logger,
            tell: (sentence) => ctx.err(sentence),
          });
          const builtin = await enabledTools(await loadComponents(config, ctx.paths), config.tools);
          return [...builtin, ...(mcp?.tools() ?? [])];
        },
      });
    }
  },
};
