/**
 * `agent net ...`: the agent network from the command line: identity, card, contacts,
 * messages, the network log, a one-off poll, and the spine kit (`agent net spine`).
 *
 * @module
 */
import type { CommandModule } from "../command.ts";
import { UsageError } from "../command.ts";
import { t } from "./_net_messages.ts";
import { t as ts } from "./_spine_messages.ts";
import { t as tu } from "./_universe_messages.ts";
import { plainSubcommandArgs, type PlainTable } from "../_plain_args.ts";

/** The `agent net` subcommands the plain path reads (checked against `configure()`). */
const NET_PLAIN: PlainTable = {
  init: { options: ["--name"] },
  name: { args: ["<name...>"] },
  status: {},
  card: {},
  publish: {},
  contacts: {},
  add: { args: ["<address>"], options: ["--note"] },
  accept: { args: ["<address>"] },
  block: { args: ["<address>"] },
  remove: { args: ["<address>"] },
  send: { args: ["<target>", "<text...>"] },
  log: { options: ["--address", "-n"] },
  poll: { flags: ["--once"] },
};

/** `agent net`. */
export const command: CommandModule = {
  name: "net",
  summary: {
    en: "Talk to other agents: identity, card, contacts, messages, log.",
    tr: "Diğer ajanlarla konuşur: kimlik, kart, kişiler, mesajlar, kayıt.",
  },
  configure(cmd, lang) {
    const d = (key: Parameters<typeof t>[1]) => t(lang, key);
    cmd.command("init").description(d("h_init")).option("--name <name>", d("h_name_opt"));
    cmd.command("name").description(d("h_name")).argument("<name...>");
    cmd.command("status").description(d("h_status"));
    cmd.command("card").description(d("h_card"));
    cmd.command("publish").description(d("h_publish"));
    cmd.command("contacts").description(d("h_contacts"));
    cmd.command("add").description(d("h_add")).argument("<address>")
      .option("--note <text>", d("h_note"));
    cmd.command("accept").description(d("h_accept")).argument("<address>");
    cmd.command("block").description(d("h_block")).argument("<address>");
    cmd.command("remove").description(d("h_remove")).argument("<address>");
    cmd.command("send").description(d("h_send")).argument("<target>").argument("<text...>");
    cmd.command("log").description(d("h_log"))
      .option("--address <address>", d("h_log_address"))
      .option("-n <count>", d("h_log_n"));
    cmd.command("poll").description(d("h_poll")).option("--once", d("h_once"));
    const s = (key: Parameters<typeof ts>[1]) => ts(lang, key);
    const spine = cmd.command("spine").description(s("h_spine"));
    spine.command("init").description(s("h_spine_init")).argument("<dir>")
      .option("--address <host>", s("h_address"))
      .option("--ip-limit-id <id>", s("h_ip_id"))
      .option("--sender-limit-id <id>", s("h_sender_id"))
      .option("--cloud", s("h_cloud"))
      .option("--bundle <file>", s("h_bundle"));
    spine.command("deploy").description(s("h_spine_deploy")).argument("<dir>")
      .option("--address <host>", s("h_address"));
    const u = (key: Parameters<typeof tu>[1]) => tu(lang, key);
    const universe = cmd.command("universe").description(u("h_universe"));
    universe.command("join").description(u("h_join"))
      .option("--owner <name>", u("h_owner"))
      .option("--about <text>", u("h_about"))
      .option("--links", u("h_links"))
      .option("--no-links", u("h_no_links"));
    universe.command("status").description(u("h_status"));
    universe.command("leave").description(u("h_leave"));
    universe.command("deploy").description(u("h_deploy")).argument("<dir>")
      .option("--host <host>", u("h_host"));
  },
  plainArgs: (words) => plainSubcommandArgs(words, NET_PLAIN),
  async run(ctx, args, opts) {
    const [sub = "", ...rest] = args;
    const { NET_ACTIONS, netFailure } = await import("./_net_actions.ts");
    const action = NET_ACTIONS[sub];
    if (action === undefined) throw new UsageError(`Unknown net command '${sub}'.`);
    try {
      return await action(ctx, rest, opts);
    } catch (error) {
      throw netFailure(ctx, error);
    }
  },
};
