/**
 * The universe's pages on workerd: the language rules (cookie, Accept-Language, `?lang=`
 * with one redirect at most), the three security headers on every page, no inline script
 * or style; and the directory's schema migration from version 1.
 */
import assert from "node:assert/strict";
import { type MiniflareOptions, startMiniflare, stopMiniflare } from "@agent/kit";
import { fileUniverse, snapshot, startUniverse } from "./_harness.ts";
import { freePort } from "../_port.ts";

const T = { sanitizeOps: false, sanitizeResources: false };
const HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};

// The page tests read nothing stored: they take turns on one universe.
const pages = fileUniverse();

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers, redirect: "manual" });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

Deno.test({
  name: "pages: each page in en and tr with the three headers, no inline script or style",
  ...T,
  async fn() {
    const u = await pages();
    for (
      const path of [
        "/",
        "/how-it-works",
        "/universe",
        "/tr/",
        "/tr/how-it-works",
        "/tr/universe",
      ]
    ) {
      const r = await get(`${u.url}${path}`, { "accept-language": "en" });
      assert.equal(r.status, 200, path);
      for (const [name, value] of Object.entries(HEADERS)) {
        assert.equal(r.headers.get(name), value, path);
      }
      assert.match(r.text, new RegExp(`<html lang="${path.startsWith("/tr") ? "tr" : "en"}">`));
      assert.doesNotMatch(
        r.text,
        /<script>|<script [^>]*>[^<]|<style|style="| on[a-z]+="/i,
        path,
      );
      assert.match(r.text, /<link rel="stylesheet" href="\/assets\/site\.css">/);
    }
    for (const asset of ["/assets/site.css", "/assets/map.js"]) {
      const r = await get(`${u.url}${asset}`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get("cache-control"), "public, max-age=3600");
    }
  },
});

Deno.test({
  name:
    "pages: / follows the lang cookie, else Accept-Language; ?lang= stores the choice and redirects once",
  ...T,
  async fn() {
    const u = await pages();
    let r = await get(`${u.url}/`, { "accept-language": "tr-TR,tr;q=0.9,en;q=0.8" });
    assert.deepEqual([r.status, r.headers.get("location")], [302, "/tr/"]);
    for (const [name, value] of Object.entries(HEADERS)) assert.equal(r.headers.get(name), value);
    r = await get(`${u.url}/`, { "accept-language": "en-US,en;q=0.9,tr;q=0.8" });
    assert.equal(r.status, 200);
    r = await get(`${u.url}/`, { cookie: "lang=tr", "accept-language": "en" });
    assert.deepEqual([r.status, r.headers.get("location")], [302, "/tr/"]);
    r = await get(`${u.url}/`, { cookie: "lang=en", "accept-language": "tr" });
    assert.equal(r.status, 200);
    // ?lang= on any page: the cookie, and the clean URL of the page in that language.
    r = await get(`${u.url}/how-it-works?lang=tr`);
    assert.deepEqual([r.status, r.headers.get("location")], [302, "/tr/how-it-works"]);
    assert.match(
      r.headers.get("set-cookie") ?? "",
      /^lang=tr; Path=\/; Max-Age=31536000; SameSite=Lax/,
    );
    r = await get(`${u.url}/tr/universe?lang=en`);
    assert.deepEqual([r.status, r.headers.get("location")], [302, "/universe"]);
    // The target of a redirect never redirects again, even with a Turkish browser.
    r = await get(`${u.url}/?lang=en`, { "accept-language": "tr" });
    assert.deepEqual([r.status, r.headers.get("location")], [302, "/"]);
    r = await get(`${u.url}/`, { cookie: "lang=en", "accept-language": "tr" });
    assert.equal(r.status, 200);
    r = await get(`${u.url}/nowhere`);
    assert.equal(r.status, 404);
  },
});

// The version-1 directory: agents without the sub-agent column.
const V1 = `
export class Directory {
  constructor(state) { this.sql = state.storage.sql; }
  async fetch() {
    this.sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value)");
    this.sql.exec("INSERT INTO meta VALUES ('schema_version', 1)");
    this.sql.exec("CREATE TABLE agents (address TEXT PRIMARY KEY, name TEXT NOT NULL, sign_key TEXT NOT NULL, owner TEXT NOT NULL, about TEXT NOT NULL, joined_at INTEGER NOT NULL, last_seen INTEGER NOT NULL)");
    this.sql.exec("CREATE TABLE links (a TEXT NOT NULL, b TEXT NOT NULL, messages INTEGER NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID");
    this.sql.exec("CREATE TABLE replay (address TEXT PRIMARY KEY, last_ts INTEGER NOT NULL)");
    this.sql.exec("CREATE TABLE hits (address TEXT NOT NULL, at INTEGER NOT NULL)");
    const now = Math.floor(Date.now() / 1000);
    this.sql.exec("INSERT INTO agents VALUES ('old.example', 'Old', 'AAAA', 'o', 'from v1', ?, ?)", now - 100, now - 100);
    return new Response("ok");
  }
}
export default { fetch(request, env) { return env.DIRECTORY.get(env.DIRECTORY.idFromName("directory")).fetch(request); } };
`;

Deno.test({
  name: "the directory migrates a version-1 store (no sub-agent column) to version 2",
  ...T,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "universe-v1-" });
    try {
      const v1 = startMiniflare(
        {
          modules: true,
          script: V1,
          compatibilityDate: "2026-04-20",
          durableObjects: { DIRECTORY: { className: "Directory", useSQLite: true } },
          durableObjectsPersist: `${dir}/do`,
          port: freePort(),
          host: "127.0.0.1",
          cf: false,
        } as MiniflareOptions,
      );
      const url = (await v1.ready).href;
      assert.equal(await (await fetch(url)).text(), "ok");
      await stopMiniflare(v1);
      const u = await startUniverse({ persistDir: dir });
      try {
        const s = await snapshot(u);
        assert.deepEqual(
          s.taus.map((
            t: { address: string; subs: unknown[]; about: string },
          ) => [t.address, t.about, t.subs]),
          [["old.example", "from v1", []]],
        );
      } finally {
        await u.stop();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "pages: the landing's join command links to what the agent is and how to install it, en and tr",
  ...T,
  async fn() {
    const u = await pages();
    for (
      const [landing, how, text] of [
        ["/", "/how-it-works", "New here? What the agent is, and how to install it"],
        ["/tr/", "/tr/how-it-works", "Yeni misiniz? Ajan nedir, nasıl kurulur"],
      ]
    ) {
      const page = await get(`${u.url}${landing}`, { "accept-language": "en" });
      // Was: the command alone, with nothing saying what "the agent" is.
      const link =
        `<code>agent net universe join</code></pre>\n<p class="note"><a href="${how}#install">${text}</a></p>`;
      assert.ok(page.text.includes(link), page.text);
      const target = await get(`${u.url}${how}`);
      assert.equal(target.status, 200);
      assert.match(target.text, /<h2 id="install">[^<]+<\/h2><p>[^<]*<code>agent<\/code>/);
      assert.match(target.text, /<code>deno install -g -n agent [^<]*jsr:@agent\/cli<\/code>/);
    }
  },
});
