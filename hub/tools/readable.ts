/**
 * A web page as the model should read it: the article Mozilla's Readability finds (the
 * reader view of Firefox), in a DOM made for Deno (`linkedom`), turned into Markdown
 * (`turndown`): headings, lists, links (made absolute) and code kept; menus, scripts,
 * styles and footers left out. A page with no article is turned whole. Loaded only when
 * `fetch_url` gets HTML: the three packages weigh a few MB a hub need not hold.
 *
 * @module
 */
import { parseHTML } from "linkedom";
import { Readability } from "@mozilla/readability";
import TurndownService from "turndown";

/** A page's readable form. */
export interface ReadablePage {
  /** The page's title, when it has one. */
  title: string;
  /** The article (or the whole body) as Markdown. */
  markdown: string;
  /** Readability found an article (false: the whole body was turned). */
  article: boolean;
}

/**
 * The readable Markdown of `html`, fetched from `url` (relative links resolve against it).
 *
 * @example
 * ```ts
 * import { readablePage } from "./readable.ts";
 * const page = readablePage(
 *   '<html><head><title>T</title></head><body><nav>Menu</nav><p>Read <a href="/x">this</a>.</p></body></html>',
 *   "https://example.org/a/",
 * );
 * if (!page.markdown.includes("[this](https://example.org/x)") || page.markdown.includes("Menu")) {
 *   throw new Error(page.markdown);
 * }
 * ```
 */
export function readablePage(html: string, url: string): ReadablePage {
  const { document } = parseHTML(html);
  const title = (document.title ?? "").trim();
  let body = "";
  let article = false;
  try {
    const found = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
    if (found?.content) {
      body = found.content;
      article = true;
    }
  } catch { /* a page Readability cannot read is turned whole */ }
  const { document: doc } = parseHTML(
    `<!doctype html><html><body>${article ? body : bodyOf(html)}</body></html>`,
  );
  for (const node of doc.querySelectorAll("script, style, noscript, iframe, template, nav")) {
    node.remove();
  }
  for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]] as const) {
    for (const node of doc.querySelectorAll(selector)) {
      const value = node.getAttribute(attribute);
      if (value === null) continue;
      try {
        node.setAttribute(attribute, new URL(value, url).href);
      } catch { /* left as written */ }
    }
  }
  const turndown = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
  const markdown = turndown.turndown(doc.body as unknown as HTMLElement)
    .replace(/\n{3,}/g, "\n\n").trim();
  return { title, markdown, article };
}

/** The body of a page Readability found no article in (its head left out). */
function bodyOf(html: string): string {
  const { document } = parseHTML(html);
  return document.body?.innerHTML ?? html;
}
