/**
 * The Settings page's "Tools (MCP servers)" card: the owner's MCP servers and their acts,
 * the page's twin of `agent mcp` (the hub's routes in `hub/dashboard/mcp.ts` run the same
 * code and answer with the same sentences). Each server shows how it is reached, its
 * sandbox, its state in words (pinned, disabled because its tool list changed or was
 * never pinned, failed to start) and its pinned tools with tier and token cost. A server
 * is added by name with a command and its arguments or a URL; a changed one shows what
 * it lists now against its pin and is pinned exactly as shown (when the list moved again
 * meanwhile the hub refuses with its sentence and the card shows the new changes); one
 * is removed after a confirm step. Each server and the add form have their own status
 * line, next to the buttons they answer, so a phone does not scroll away to read it.
 *
 * @module
 */
import { failureText, get } from "./api.ts";
import { h, replace } from "./dom.ts";
import { t } from "./i18n.ts";
import {
  type CardHooks,
  type McpServer,
  type Note,
  serverBlock,
  type Status,
} from "./settings_mcp_server.ts";
import { addForm } from "./settings_mcp_add.ts";

/**
 * The card, its server list loaded: place it on the page. A list the hub cannot give
 * shows its sentence in the card, not in place of the whole page.
 */
export async function mcpCard(): Promise<HTMLElement> {
  const card = status("mcp-said");
  const list = h("div", { class: "mcp-servers" });
  const hooks: CardHooks = { card, line: status, load: (note) => load(note) };
  const load = async (note?: Note) => {
    try {
      const { servers } = await get<{ servers: McpServer[] }>("mcp");
      replace(
        list,
        servers.length === 0
          ? h("p", { class: "muted" }, t("mcp_none"))
          : servers.map((s) => serverBlock(s, hooks, note?.server === s.name ? note : undefined)),
      );
    } catch (error) {
      replace(
        list,
        h(
          "p",
          { class: "bad" },
          t("mcp_failed_list", { detail: failureText(error, (e) => String(e)) }),
        ),
      );
    }
  };
  await load();
  return h(
    "section",
    { class: "card wide mcp", "aria-labelledby": "s-mcp" },
    h("h2", { id: "s-mcp" }, t("mcp_title")),
    h("p", { class: "muted" }, t("mcp_note")),
    card.el,
    list,
    addForm(hooks),
  );
}

function status(id?: string): Status {
  const el = h("p", { role: "status", class: "mcp-said", id, "aria-live": "polite" });
  const say = (text: string, bad = false) => {
    el.textContent = text;
    el.classList.toggle("bad", bad);
    el.classList.toggle("ok", !bad);
  };
  return {
    el,
    say,
    failed: (error) => say(failureText(error, (e) => t("error", { detail: String(e) })), true),
  };
}
