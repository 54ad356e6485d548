/**
 * The Settings page: each role's provider, model and budget, saved into `agent.toml`
 * by the hub (which checks them with the CLI's parser and answers its sentence when
 * one is wrong), and the credentials as set / not set, each settable through a
 * password field that is cleared at once and never shown again; and the MCP servers
 * (`settings_mcp.ts`).
 *
 * @module
 */
import { failureText, get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { t } from "./i18n.ts";
import { mcpCard } from "./settings_mcp.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Renders the page into `main`; `note` is the last save's sentence, kept across it. */
export async function settings(main: HTMLElement, note?: string): Promise<void> {
  const data = await get<Json>("settings");
  const said = h("p", { role: "status", id: "settings-said", "aria-live": "polite" });
  const say = (text: string, bad = false) => {
    said.textContent = text;
    said.className = bad ? "bad" : "ok";
  };
  if (note !== undefined) say(note);
  const failed = (error: unknown) =>
    say(
      failureText(error, (e) => t("error", { detail: String(e) })),
      true,
    );
  const roleForm = (r: Json) => {
    const id = (f: string) => `r-${r.name}-${f}`;
    const field = (f: string, label: string, value: string, extra: Record<string, string> = {}) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: id(f) }, label),
        h("input", { id: id(f), name: f, value, ...extra }),
      );
    const form = h(
      "form",
      {
        class: "card role",
        "data-role": r.name,
        "aria-label": r.name,
        onsubmit: async (e: Event) => {
          e.preventDefault();
          const values = Object.fromEntries(new FormData(form).entries());
          try {
            const { saved, applied, restart } = await post<
              { saved: boolean; applied: string[]; restart: string[] }
            >("settings/role", { role: r.name, ...values });
            const live = applied.includes("models");
            const first = !saved
              ? t("settings_unchanged")
              : live
              ? t("settings_saved_live", { role: r.name })
              : t("settings_saved_role", { role: r.name });
            const later = restart.filter((s) => s !== "models" || !live);
            say(
              later.length === 0
                ? first
                : `${first} ${t("settings_restart", { sections: later.join("], [") })}`,
            );
          } catch (error) {
            failed(error);
          }
        },
      },
      h("h2", {}, r.name),
      field("provider", t("provider"), r.provider),
      field("model_id", t("model"), r.model_id),
      field("budget_usd", t("budget_usd"), r.budget ? String(r.budget.usd) : "", {
        inputmode: "decimal",
      }),
      h(
        "div",
        { class: "field" },
        h("label", { for: id("budget_period") }, t("period")),
        h(
          "select",
          { id: id("budget_period"), name: "budget_period" },
          h("option", { value: "" }, "-"),
          (["day", "week", "month"] as const).map((p) =>
            h("option", { value: p, selected: r.budget?.period === p }, p)
          ),
        ),
      ),
      h("button", { type: "submit", class: "primary" }, t("save")),
    );
    return form;
  };
  const secretRow = (s: Json) => {
    const input = h("input", {
      type: "password",
      id: `s-${s.name}`,
      name: "value",
      autocomplete: "off",
    });
    return h(
      "form",
      {
        class: "secret",
        "data-secret": s.name,
        onsubmit: async (e: Event) => {
          e.preventDefault();
          const value = input.value;
          // Cleared before anything else: the value stays nowhere in the page.
          input.value = "";
          try {
            const { saved, live } = await post<{ saved: string; live: boolean }>(
              "settings/secret",
              { name: s.name, value },
            );
            await settings(main, `${saved} ${live ? t("secret_live") : t("secret_restart")}`);
          } catch (error) {
            failed(error);
          }
        },
      },
      h("label", { for: `s-${s.name}` }, s.name),
      h("span", { class: s.set ? "tag ok" : "tag bad" }, s.set ? t("set") : t("not_set")),
      s.live ? null : h("span", { class: "muted small" }, t("secret_at_start")),
      input,
      h("button", { type: "submit" }, t("save")),
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
