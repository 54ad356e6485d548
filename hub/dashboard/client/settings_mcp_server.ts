/**
 * One server of the Settings page's MCP card (`settings_mcp.ts`): how it is reached, its
 * sandbox, its state in words and its pinned tools with tier and token cost; its changes
 * against its pin, pinned exactly as shown (a list that moved again meanwhile is refused
 * by the hub, and the new changes are shown); its removal after a confirm step.
 *
 * @module
 */
import { ApiError, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t, time } from "./i18n.ts";

/** A status line: what an act answered, in words, announced as it changes. */
export interface Status {
  el: HTMLElement;
  say(text: string, bad?: boolean): void;
  /** Says the hub's sentence for a refused request (or what went wrong). */
  failed(error: unknown): void;
}

/** A sentence for one server's status line, kept across the list's reload. */
export interface Note {
  server: string;
  text: string;
}

/** What the server blocks and the add form share: the card's line and the list's reload. */
export interface CardHooks {
  card: Status;
  /** A new status line (the card's, a server's, the form's). */
  line(id?: string): Status;
  load(note?: Note): Promise<void>;
}

/** A pinned tool as `GET mcp` gives it. */
interface McpTool {
  name: string;
  model_name: string;
  tier: 1 | 2;
  offered: boolean;
  tokens: number;
  description: string;
}

/** A server as `GET mcp` gives it. */
export interface McpServer {
  name: string;
  transport: "stdio" | "http";
  target: string;
  sandbox: boolean;
  state: "pinned" | "changed" | "unpinned";
  pinnedAt?: number;
  /** The running hub's view, or null when it has not started this server. */
  live: { state: string; sentence: string | null } | null;
  tools: McpTool[];
}

interface ListedTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

type ToolChange =
  | { kind: "added"; tool: ListedTool }
  | { kind: "removed"; tool: ListedTool }
  | { kind: "changed"; name: string; before: ListedTool; after: ListedTool };

/** What `POST mcp/changes` answers. */
interface Changes {
  changes: ToolChange[];
  hash: string;
  pinned: boolean;
}

/** The state in words (the colour only repeats it), and whether it is the good one. */
function stateOf(s: McpServer): { key: string; text: string; ok: boolean } {
  if (s.live?.state === "failed") return { key: "failed", text: t("mcp_state_failed"), ok: false };
  if (s.state === "changed") return { key: "changed", text: t("mcp_state_changed"), ok: false };
  if (s.state === "unpinned") {
    return { key: "unpinned", text: t("mcp_state_unpinned"), ok: false };
  }
  return { key: "pinned", text: t("mcp_state_pinned"), ok: true };
}

/** What the running hub does with `s` now, where the pins alone do not say it. */
function liveNote(s: McpServer): string | null {
  if (s.live === null) return t("mcp_not_live");
  if (s.live.state === "failed") return s.live.sentence;
  // Pinned here since the hub found it changed: the hub keeps it off until it restarts.
  if (s.state === "pinned" && (s.live.state === "changed" || s.live.state === "unpinned")) {
    return t("mcp_live_off");
  }
  return null;
}

/** One server: its facts, state and tools, and its acts. */
export function serverBlock(s: McpServer, hooks: CardHooks, note?: Note): HTMLElement {
  const id = `mcp-${s.name}`;
  const own = hooks.line();
  if (note !== undefined) own.say(note.text);
  const state = stateOf(s);
  const live = liveNote(s);
  const panel = h("div", { class: "mcp-panel" });
  const tokens = s.tools.reduce((sum, tool) => sum + (tool.offered ? tool.tokens : 0), 0);
  const showChanges = h("button", {
    type: "button",
    class: state.ok ? "" : "primary",
    onclick: () => changes(s.name, { panel, button: showChanges, own, hooks }),
  }, t("mcp_show_changes"));
  const remove = h("button", {
    type: "button",
    onclick: () => confirmRemove(s.name, { panel, button: remove, own, hooks }),
  }, t("mcp_remove"));
  return h(
    "article",
    { class: "mcp-server", "data-server": s.name, "aria-labelledby": `${id}-name` },
    h("h3", { id: `${id}-name` }, s.name),
    h(
      "dl",
      { class: "mcp-facts" },
      h("dt", {}, t("mcp_state")),
      h(
        "dd",
        {},
        h("span", { class: `mcp-state ${state.ok ? "ok" : "bad"}`, "data-state": state.key }, [
          state.text,
        ]),
        s.pinnedAt !== undefined && s.state === "pinned"
          ? h("span", { class: "muted" }, ` (${t("mcp_pinned_at", { when: time(s.pinnedAt) })})`)
          : null,
        live === null ? null : h("span", { class: "mcp-live" }, live),
      ),
      h("dt", {}, t("mcp_transport")),
      h("dd", {}, t(s.transport === "http" ? "mcp_http" : "mcp_stdio")),
      h("dt", {}, t(s.transport === "http" ? "mcp_url" : "mcp_command")),
      h("dd", {}, h("code", { class: "mcp-target" }, s.target)),
      h("dt", {}, t("mcp_sandbox")),
      h("dd", {}, t(s.sandbox ? "mcp_sandbox_on" : "mcp_sandbox_off")),
    ),
    s.tools.length === 0 ? h("p", { class: "muted" }, t("mcp_tools_none")) : h(
      "details",
      { class: "mcp-tools" },
      h(
        "summary",
        {},
        t("mcp_tools", { count: count(s.tools.length), tokens: count(tokens) }),
      ),
      h(
        "ul",
        { class: "plain" },
        s.tools.map((tool) =>
          h(
            "li",
            { "data-tool": tool.name },
            h("code", {}, tool.model_name),
            " ",
            h(
              "span",
              { class: "muted mcp-meta" },
              tool.offered
                ? `${t("mcp_tier", { tier: tool.tier })} · ${
                  t("mcp_tokens", { tokens: count(tool.tokens) })
                }`
                : t("mcp_not_offered"),
            ),
            h("div", { class: "mcp-desc" }, tool.description),
          )
        ),
      ),
    ),
    h("div", { class: "toolbar" }, showChanges, remove),
    own.el,
    panel,
  );
}

/** A server block's parts its acts use: the panel under it, the button that opened it. */
interface BlockParts {
  panel: HTMLElement;
  button: HTMLButtonElement;
  own: Status;
  hooks: CardHooks;
}

/** Asks the hub what server `name` lists now and shows it with a Pin button. */
async function changes(name: string, parts: BlockParts): Promise<void> {
  const { panel, button, own } = parts;
  button.disabled = true;
  panel.setAttribute("aria-busy", "true");
  own.say(t("mcp_starting", { name }));
  try {
    const now = await post<Changes>("mcp/changes", { name });
    own.say("");
    showChanges(name, now, parts);
  } catch (error) {
    own.failed(error);
    replace(panel);
  } finally {
    button.disabled = false;
    panel.removeAttribute("aria-busy");
  }
}

function showChanges(name: string, now: Changes, parts: BlockParts): void {
  const { panel, own, hooks } = parts;
  const headingId = `mcp-${name}-changes`;
  if (now.pinned && now.changes.length === 0) {
    replace(panel, h("p", { class: "mcp-unchanged" }, t("mcp_unchanged", { name })));
    return;
  }
  const pin = h("button", {
    type: "button",
    class: "primary",
    onclick: async () => {
      pin.disabled = true;
      own.say(t("mcp_starting", { name }));
      try {
        const { saved } = await post<{ saved: string }>("mcp/pin", { name, hash: now.hash });
        await hooks.load({ server: name, text: saved });
      } catch (error) {
        pin.disabled = false;
        own.failed(error);
        // The list moved again since it was shown: show what it lists now instead.
        if (error instanceof ApiError && error.status === 409) {
          try {
            showChanges(name, await post<Changes>("mcp/changes", { name }), parts);
          } catch (again) {
            own.failed(again);
          }
        }
      }
    },
  }, t("mcp_pin"));
  replace(
    panel,
    h(
      "section",
      { class: "mcp-changes", "aria-labelledby": headingId },
      h(
        "h4",
        { id: headingId },
        now.pinned ? t("mcp_changes_title", { name }) : t("mcp_unpinned_list", { name }),
      ),
      h("ul", { class: "plain" }, now.changes.map(changeLine)),
      panelButtons(pin, parts),
    ),
  );
  pin.focus();
}

/** A panel's act and its Cancel, which closes the panel and gives the focus back. */
function panelButtons(act: HTMLButtonElement, parts: BlockParts): HTMLElement {
  return h(
    "div",
    { class: "toolbar" },
    act,
    h("button", {
      type: "button",
      onclick: () => {
        replace(parts.panel);
        parts.button.focus();
      },
    }, t("mcp_cancel")),
  );
}

function changeLine(change: ToolChange): HTMLElement {
  if (change.kind === "added") {
    return h(
      "li",
      { "data-change": "added" },
      h("strong", {}, t("mcp_added_tool", { tool: change.tool.name })),
      h("div", { class: "mcp-desc" }, change.tool.description),
    );
  }
  if (change.kind === "removed") {
    return h(
      "li",
      { "data-change": "removed" },
      h("strong", {}, t("mcp_removed_tool", { tool: change.tool.name })),
    );
  }
  // The description when it changed, else the schema (the part that did).
  const same = change.before.description === change.after.description;
  const text = (tool: ListedTool) => same ? JSON.stringify(tool.inputSchema) : tool.description;
  return h(
    "li",
    { "data-change": "changed" },
    h("strong", {}, t("mcp_changed_tool", { tool: change.name })),
    h(
      "dl",
      { class: "mcp-diff" },
      h("dt", {}, t("mcp_before")),
      h("dd", { class: "before" }, text(change.before)),
      h("dt", {}, t("mcp_after")),
      h("dd", { class: "after" }, text(change.after)),
    ),
  );
}

/** The confirm step before removing server `name`. */
function confirmRemove(name: string, parts: BlockParts): void {
  const { panel, own, hooks } = parts;
  const yes = h("button", {
    type: "button",
    class: "danger",
    onclick: async () => {
      yes.disabled = true;
      try {
        const { saved } = await post<{ saved: string }>("mcp/remove", { name });
        await hooks.load();
        // Its block is gone: the card's line says it.
        hooks.card.say(saved);
      } catch (error) {
        yes.disabled = false;
        own.failed(error);
      }
    },
  }, t("mcp_remove_yes", { name }));
  replace(
    panel,
    h(
      "div",
      { class: "mcp-confirm", role: "group", "aria-label": t("mcp_remove") },
      h("p", {}, t("mcp_remove_ask", { name })),
      panelButtons(yes, parts),
    ),
  );
  yes.focus();
}
