/**
 * The Settings page: each role's provider, model and budget, saved into `agent.toml`
 * by the hub (which checks them with the CLI's parser and answers its sentence when
 * one is wrong), and the credentials as set / not set, each settable through a
 * password field that is cleared at once and never shown again; and the MCP servers
 * (`settings_mcp.ts`).
 *
 * @module
 */
import { ApiError, failureText, get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { decimal, t } from "./i18n.ts";
import { mcpCard } from "./settings_mcp.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/**
 * Renders the page into `main`; `note` is the last save's sentence, kept across it and
 * said in the row of the credential `noteFor` when one is named (where the person is).
 */
export async function settings(main: HTMLElement, note?: string, noteFor?: string): Promise<void> {
  const data = await get<Json>("settings");
  const said = h("p", { role: "status", id: "settings-said", "aria-live": "polite" });
  const say = (text: string, bad = false) => {
    said.textContent = text;
    said.className = bad ? "bad" : "ok";
  };
  if (note !== undefined && noteFor === undefined) say(note);
  const roleForm = (r: Json) => {
    const id = (f: string) => `r-${r.name}-${f}`;
    // The form's own sentence, under its Save button: where the person is looking.
    const formSaid = h("p", { role: "status", class: "form-said", "aria-live": "polite" });
    const fields = new Map<string, HTMLElement>();
    const errors = new Map<string, HTMLElement>();
    const field = (f: string, label: string, control: HTMLElement) => {
      const error = h("p", { id: id(`${f}-error`), class: "field-error", hidden: true });
      fields.set(f, control);
      errors.set(f, error);
      return h("div", { class: "field" }, h("label", { for: id(f) }, label), control, error);
    };
    const input = (f: string, value: string, extra: Record<string, string> = {}) =>
      h("input", { id: id(f), name: f, value, ...extra });
    const clearMarks = () => {
      for (const [f, control] of fields) {
        control.removeAttribute("aria-invalid");
        const hint = control.dataset.hint;
        if (hint) control.setAttribute("aria-describedby", hint);
        else control.removeAttribute("aria-describedby");
        const error = errors.get(f)!;
        error.hidden = true;
        error.textContent = "";
      }
      formSaid.textContent = "";
      formSaid.className = "form-said";
    };
    const formSay = (text: string, bad = false) => {
      formSaid.textContent = text;
      formSaid.className = `form-said ${bad ? "bad" : "ok"}`;
    };
    const form = h(
      "form",
      {
        class: "card role",
        "data-role": r.name,
        "aria-label": r.name,
        novalidate: true,
        onsubmit: async (e: Event) => {
          e.preventDefault();
          clearMarks();
          const values = Object.fromEntries(new FormData(form).entries());
          try {
            const { saved, cleared, applied, restart } = await post<
              { saved: boolean; cleared: string | null; applied: string[]; restart: string[] }
            >("settings/role", { role: r.name, ...values });
            const live = applied.includes("models");
            const first = cleared !== null
              ? cleared
              : !saved
              ? t("settings_unchanged")
              : live
              ? t("settings_saved_live", { role: r.name })
              : t("settings_saved_role", { role: r.name });
            const later = restart.filter((s) => s !== "models" || !live);
            formSay(
              later.length === 0
                ? first
                : `${first} ${t("settings_restart", { sections: later.join("], [") })}`,
            );
          } catch (error) {
            const control = error instanceof ApiError && error.field !== undefined
              ? fields.get(error.field)
              : undefined;
            const text = failureText(error, (e) => t("error", { detail: String(e) }));
            if (control === undefined) return formSay(text, true);
            // Marked, described and focused: a screen reader says the sentence with the field.
            const where = errors.get(error instanceof ApiError ? error.field ?? "" : "")!;
            where.textContent = text;
            where.hidden = false;
            control.setAttribute("aria-invalid", "true");
            const hint = control.dataset.hint;
            control.setAttribute("aria-describedby", hint ? `${where.id} ${hint}` : where.id);
            control.focus();
            where.scrollIntoView({ block: "nearest" });
          }
        },
      },
      h("h2", {}, r.name),
      field("provider", t("provider"), input("provider", r.provider)),
      field("model_id", t("model"), input("model_id", r.model_id)),
      field(
        "budget_usd",
        t("budget_usd"),
        input("budget_usd", r.budget ? decimal(String(r.budget.usd)) : "", {
          inputmode: "decimal",
          "aria-describedby": id("budget_usd-hint"),
          "data-hint": id("budget_usd-hint"),
        }),
      ),
      h("p", { id: id("budget_usd-hint"), class: "muted small" }, t("budget_hint")),
      field(
        "budget_period",
        t("period"),
        h(
          "select",
          { id: id("budget_period"), name: "budget_period" },
          h("option", { value: "" }, "-"),
          (["day", "week", "month"] as const).map((p) =>
            h("option", { value: p, selected: r.budget?.period === p }, t(`budget_per_${p}`))
          ),
        ),
      ),
      h("button", { type: "submit", class: "primary" }, t("save")),
      formSaid,
    );
    return form;
  };
  const secretRow = (s: Json) => {
    const url = s.name.endsWith("_URL");
    const rowSaid = h("p", { id: `s-${s.name}-said`, class: "form-said", role: "status" });
    if (note !== undefined && noteFor === s.name) {
      rowSaid.textContent = note;
      rowSaid.classList.add("ok");
    }
    // An address is no secret: typed in the open, as an address.
    const input = h("input", {
      type: url ? "url" : "password",
      id: `s-${s.name}`,
      name: "value",
      autocomplete: "off",
      ...(url ? { placeholder: "http://127.0.0.1:11434" } : {}),
    });
    return h(
      "form",
      {
        class: "secret",
        "data-secret": s.name,
        // The hub's sentence in the page's language, not the browser's bubble.
        novalidate: true,
        onsubmit: async (e: Event) => {
          e.preventDefault();
          const value = input.value;
          // Cleared before anything else: the value stays nowhere in the page (an address
          // is kept, to be corrected when refused).
          if (!url) input.value = "";
          input.removeAttribute("aria-invalid");
          rowSaid.className = "form-said";
          rowSaid.textContent = "";
          try {
            const { saved, live } = await post<{ saved: string; live: boolean }>(
              "settings/secret",
              { name: s.name, value },
            );
            const sentence = `${saved} ${live ? t("secret_live") : t("secret_restart")}`;
            await settings(main, sentence, s.name);
          } catch (error) {
            rowSaid.textContent = failureText(error, (e) => t("error", { detail: String(e) }));
            rowSaid.classList.add("bad");
            input.setAttribute("aria-invalid", "true");
            input.setAttribute("aria-describedby", rowSaid.id);
            input.focus();
            rowSaid.scrollIntoView({ block: "nearest" });
          }
        },
      },
      h("label", { for: `s-${s.name}` }, s.name),
      // Only a variable a role needs is a problem when missing; an optional one is not red.
      h(
        "span",
        { class: `tag ${s.set ? "ok" : s.state === "needed" ? "bad" : "optional"}` },
        s.set ? t("set") : s.state === "needed" ? t("not_set") : t("not_set_optional"),
      ),
      s.live ? null : h("span", { class: "muted small" }, t("secret_at_start")),
      input,
      h("button", { type: "submit" }, t("save")),
      rowSaid,
    );
  };
  replace(
    main,
    h("h1", {}, t("nav_settings")),
    h(
      "p",
      { class: "muted" },
      t(data.live ? "settings_note_live" : "settings_note", { file: data.file }),
    ),
    said,
    h("div", { class: "cards" }, data.roles.map(roleForm)),
    h(
      "section",
      { class: "card wide", "aria-labelledby": "s-secrets" },
      h("h2", { id: "s-secrets" }, t("secrets")),
      data.secrets.map(secretRow),
    ),
    await mcpCard(),
  );
}
