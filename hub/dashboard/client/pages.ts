/**
 * The pages beyond the overview and the spend: the conversations, the approvals, the
 * network, the jobs, the memory and the settings.
 *
 * @module
 */
import { t } from "./i18n.ts";
import { conversations } from "./conversations.ts";
import { approvals } from "./approvals.ts";
import { network } from "./network.ts";
import { settings } from "./settings.ts";
import { jobs } from "./jobs.ts";
import { memory } from "./memory.ts";

/** A page: its title and how it renders into `main`. */
export interface PageDef {
  title(): string;
  render(main: HTMLElement, arg: string, live: EventTarget): Promise<void>;
}

/** The conversations, the approvals, the network, the jobs and the settings. */
export const PAGES: Record<string, PageDef> = {
  conversations: {
    title: () => t("nav_conversations"),
    render: (main, arg, live) => conversations(main, arg, live),
  },
  approvals: {
    title: () => t("nav_approvals"),
    render: (main, _arg, live) => approvals(main, live),
  },
  network: { title: () => t("nav_network"), render: (main) => network(main) },
  jobs: { title: () => t("nav_jobs"), render: (main, arg, live) => jobs(main, arg, live) },
  memory: { title: () => t("nav_memory"), render: (main) => memory(main) },
  settings: { title: () => t("nav_settings"), render: (main) => settings(main) },
};
