/**
 * Markdown from the model or a peer rendered as DOM nodes, never as HTML: headings,
 * paragraphs, lists, quotes, fenced code, inline code, bold, italic and links (http,
 * https and mailto only; others stay text). Whatever else the text holds, `<script>`
 * or `<img onerror>` included, is shown as the characters it is.
 *
 * @module
 */
import { append, type Child, h } from "./dom.ts";

/**
 * A line that opens a code fence, as CommonMark has it: three or more backticks or tildes,
 * then an info string whose first word is the language (`` ```js title=app.js ``); a
 * backtick fence's info holds no backtick.
 */
const FENCE = /^\s*(`{3,}(?=[^`]*$)|~{3,})\s*([\w+-]*)/;

/** The nodes of `text`. */
export function markdown(text: string): Node[] {
  const out: Node[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      // Closed by a line of the same mark, at least as long, and nothing else.
      const close = new RegExp(`^${fence[1]![0]}{${fence[1]!.length},}$`);
      const body: string[] = [];
      i++;
      while (i < lines.length && !close.test(lines[i]!.trim())) body.push(lines[i++]!);
      i++;
      out.push(h("pre", {}, h("code", fence[2] ? { "data-lang": fence[2] } : {}, body.join("\n"))));
      continue;
    }
    if (line.trim() === "") {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1]!.length + 2) as 3 | 4 | 5 | 6;
      out.push(h(`h${level}`, {}, inline(heading[2]!)));
      i++;
      continue;
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const list = h(ordered ? "ol" : "ul");
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i]!)) {
        append(list, [h("li", {}, inline(lines[i]!.replace(/^\s*([-*+]|\d+[.)])\s+/, "")))]);
        i++;
      }
      out.push(list);
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) {
        quoted.push(lines[i++]!.replace(/^\s*>\s?/, ""));
      }
      out.push(h("blockquote", {}, markdown(quoted.join("\n"))));
      continue;
    }
    // A line no other block took starts a paragraph, whatever it begins with: a line
    // such as "```a`b" that opens no fence once took no line here and looped for ever.
    const para: string[] = [lines[i++]!];
    while (
      i < lines.length && lines[i]!.trim() !== "" &&
      !/^(#{1,6}\s|\s*```|\s*~~~|\s*>)/.test(lines[i]!) &&
      !/^\s*([-*+]|\d+[.)])\s+/.test(lines[i]!)
    ) para.push(lines[i++]!);
    const p = h("p");
    para.forEach((text, n) => {
      if (n > 0) p.appendChild(h("br"));
      append(p, inline(text));
    });
    out.push(p);
  }
  return out;
}

const INLINE =
  /(`+)([^`]+?)\1|\*\*([^*]+?)\*\*|(?<![\p{L}\p{N}_])__([^_]+?)__(?![\p{L}\p{N}_])|\*([^*\s][^*]*?)\*|(?<![\p{L}\p{N}_])_([^_\s][^_]*?)_(?![\p{L}\p{N}_])|\[([^\]]+)\]\(([^)\s]+)\)/u;

/** Inline Markdown as nodes. */
export function inline(text: string): Child[] {
  const out: Child[] = [];
  let rest = text;
  while (rest.length > 0) {
    const m = INLINE.exec(rest);
    if (m === null) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    if (m[1] !== undefined) out.push(h("code", {}, m[2]!));
    else if (m[3] !== undefined || m[4] !== undefined) {
      out.push(h("strong", {}, inline(m[3] ?? m[4]!)));
    } else if (m[5] !== undefined || m[6] !== undefined) {
      out.push(h("em", {}, inline(m[5] ?? m[6]!)));
    } else out.push(link(m[7]!, m[8]!));
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

function link(label: string, href: string): Child {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return `[${label}](${href})`;
  }
  if (!["http:", "https:", "mailto:"].includes(url.protocol)) return `[${label}](${href})`;
  return h("a", { href: url.href, rel: "noopener noreferrer nofollow", target: "_blank" }, label);
}
