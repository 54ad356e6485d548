/**
 * The dashboard's one HTML page: a shell with no data and no inline script or style
 * (the CSP allows neither); the bundled script fills it after the login.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";

/**
 * The page for the hub's language (the script may switch it), served under `base`
 * (`/dashboard`, or `/hub/dashboard` behind a cloud spine); `command` is the one that
 * signs a browser in, named when it is not.
 */
export function pageHtml(lang: Lang, base = "/dashboard", command = "agent dashboard"): string {
  return `<!doctype html>
<html lang="${lang === "tr" ? "tr" : "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>agent</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/assets/app.css">
<script type="module" src="${base}/assets/app.js"></script>
</head>
<body>
<div id="app" data-lang="${lang === "tr" ? "tr" : "en"}" data-base="${
    escapeAttribute(base)
  }" data-command="${escapeAttribute(command)}"><noscript>JavaScript is needed.</noscript></div>
</body>
</html>
`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}
