/**
 * The dashboard's one HTML page: a shell with no data and no inline script or style
 * (the CSP allows neither); the bundled script fills it after the login.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";

/** The page for the hub's language (the script may switch it). */
export function pageHtml(lang: Lang): string {
  return `<!doctype html>
<html lang="${lang === "tr" ? "tr" : "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>agent</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/assets/app.css">
<script type="module" src="/dashboard/assets/app.js"></script>
</head>
<body>
<div id="app" data-lang="${
    lang === "tr" ? "tr" : "en"
  }"><noscript>JavaScript is needed.</noscript></div>
</body>
</html>
`;
}
