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
import { ApiError, failureText, get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t, time } from "./i18n.ts";

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
interface McpServer {
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

/**
 * The card, its server list loaded: place it on the page. A list the hub cannot give
 * shows its sentence in the card, not in place of the whole page.
 */
export async function mcpCard(): Promise<HTMLElement> {
  const card = status("mcp-said");
  const list = h("div", { class: "mcp-servers" });
  const hooks: CardHooks = { card, load: (note) => load(note) };
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

/** A status line: what an act answered, in words, announced as it changes. */
interface Status {
  el: HTMLElement;
  say(text: string, bad?: boolean): void;
  /** Says the hub's sentence for a refused request (or what went wrong). */
  failed(error: unknown): void;
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

/** A sentence for one server's status line, kept across the list's reload. */
interface Note {
  server: string;
  text: string;
}

/** What the server blocks and the add form share: the card's line and the list's reload. */
interface CardHooks {
  card: Status;
  load(note?: Note): Promise<void>;
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

function serverBlock(s: McpServer, hooks: CardHooks, note?: Note): HTMLElement {
  const id = `mcp-${s.name}`;
  const own = status();
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
  const { panel, button, own, hooks } = parts;
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
      h(
        "div",
        { class: "toolbar" },
        pin,
        h("button", {
          type: "button",
          onclick: () => {
            replace(panel);
            button.focus();
          },
        }, t("mcp_cancel")),
      ),
    ),
  );
  pin.focus();
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
  const { panel, button, own, hooks } = parts;
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
      h(
        "div",
        { class: "toolbar" },
        yes,
        h("button", {
          type: "button",
          onclick: () => {
            replace(panel);
            button.focus();
          },
        }, t("mcp_cancel")),
      ),
    ),
  );
  yes.focus();
}

/** The form that adds a server: a name, then a command and its arguments or a URL. */
function addForm(hooks: CardHooks): HTMLElement {
  const own = status("mcp-add-said");
  const input = (
    id: string,
    label: string,
    control: HTMLInputElement | HTMLTextAreaElement,
    hint?: string,
  ) =>
    h(
      "div",
      { class: "field", "data-field": id },
      h("label", { for: `mcp-add-${id}` }, label),
      hint === undefined
        ? null
        : h("span", { class: "muted small", id: `mcp-add-${id}-hint` }, hint),
      control,
    );
  const name = h("input", {
    id: "mcp-add-name",
    name: "name",
    required: true,
    autocomplete: "off",
    autocapitalize: "none",
    spellcheck: "false",
    "aria-describedby": "mcp-add-name-hint",
  });
  const command = h("input", {
    id: "mcp-add-command",
    name: "command",
    required: true,
    autocomplete: "off",
    autocapitalize: "none",
    spellcheck: "false",
  });
  const args = h("textarea", {
    id: "mcp-add-args",
    name: "args",
    rows: 3,
    autocapitalize: "none",
    spellcheck: "false",
  });
  const url = h("input", {
    id: "mcp-add-url",
    name: "url",
    type: "url",
    autocomplete: "off",
    placeholder: "https://",
  });
  const stdioFields = h(
    "div",
    {},
    input("command", t("mcp_command"), command),
    input("args", t("mcp_args"), args),
  );
  const httpFields = h("div", { hidden: true }, input("url", t("mcp_url"), url));
  const how = (value: "stdio" | "http", label: string) =>
    h(
      "label",
      { class: "check" },
      h("input", {
        type: "radio",
        name: "how",
        value,
        checked: value === "stdio",
        onchange: () => {
          const http = value === "http";
          stdioFields.hidden = http;
          httpFields.hidden = !http;
          command.required = !http;
          url.required = http;
        },
      }),
      label,
    );
  const submit = h("button", { type: "submit", class: "primary" }, t("mcp_add"));
  const form = h(
    "form",
    {
      class: "mcp-add",
      "aria-labelledby": "mcp-add-title",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const http = !httpFields.hidden;
        const server = name.value.trim();
        submit.disabled = true;
        own.say(t("mcp_adding", { name: server }));
        try {
          const { saved } = await post<{ saved: string }>(
            "mcp/add",
            http ? { name: server, url: url.value.trim() } : {
              name: server,
              command: command.value.trim(),
              args: args.value.split("\n").map((a) => a.trim()).filter((a) => a !== ""),
            },
          );
          form.reset();
          stdioFields.hidden = false;
          httpFields.hidden = true;
          command.required = true;
          url.required = false;
          await hooks.load();
          own.say(saved);
        } catch (error) {
          // The hub's sentence (a bad name, a server that did not start); the form keeps
          // what was typed.
          own.failed(error);
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("h3", { id: "mcp-add-title" }, t("mcp_add_title")),
    input("name", t("mcp_name"), name, t("mcp_name_hint")),
    h(
      "fieldset",
      { class: "mcp-how" },
      h("legend", {}, t("mcp_how")),
      how("stdio", t("mcp_how_stdio")),
      how("http", t("mcp_how_http")),
    ),
    stdioFields,
    httpFields,
    submit,
    own.el,
  );
  return form;
}
