/**
 * The Settings page's MCP card's form (`settings_mcp.ts`): a server added by name with a
 * command and its arguments (one per line) or a Streamable HTTP address. The hub starts
 * it and lists its tools before writing anything; its sentence (a bad name, a server
 * that did not start) shows under the form, which keeps what was typed.
 *
 * @module
 */
import { post } from "./api.ts";
import { h } from "./dom.ts";
import { t } from "./i18n.ts";
import type { CardHooks } from "./settings_mcp_server.ts";

/** The form that adds a server: a name, then a command and its arguments or a URL. */
export function addForm(hooks: CardHooks): HTMLElement {
  const own = hooks.line("mcp-add-said");
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
