/**
 * Building the page from data without HTML: every text goes in as a text node, so
 * nothing from the model, a peer or a file can become markup or script.
 *
 * @module
 */

/** Attributes of {@linkcode h}: strings, `on<event>` handlers, or booleans. */
export type Attrs = Record<string, string | number | boolean | EventListener | undefined>;

/** A child: an element, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Makes an element; text children become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

/** Appends children (arrays flattened, nothing skipped). */
export function append(el: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replace(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}
