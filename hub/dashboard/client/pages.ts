/**
 * The pages beyond the overview and the spend.
 *
 * @module
 */

/** A page: its title and how it renders into `main`. */
export interface PageDef {
  title(): string;
  render(main: HTMLElement, arg: string, live: EventTarget): Promise<void>;
}

/** The conversations and the approvals. */
export const PAGES: Record<string, PageDef> = {};
