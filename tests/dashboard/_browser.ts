/**
 * What the dashboard's browser tests share: Debian's Chromium, the artefacts folder, and
 * waiting for a page to be drawn.
 *
 * @module
 */
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Download,
  type Page,
} from "playwright-core";

/**
 * Debian's Chromium headless shell if installed (`chromium-headless-shell`, what
 * Playwright itself runs for headless tests), else Debian's Chromium. The same Blink
 * draws the page; the shell lacks the full browser's windowing and profile machinery:
 * `dashboard_test.ts` took 37 CPU-seconds in it against 59 in `chromium` (renderers
 * 19 against 31, the browser process 5.6 against 13).
 */
export const CHROMIUM: string | undefined = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
]
  .find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });

/** The test options every browser test takes. */
export const T = { ignore: CHROMIUM === undefined, sanitizeOps: false, sanitizeResources: false };

/** Where screenshots are kept (ignored by git). */
export const ARTIFACTS: string = new URL("./artifacts/", import.meta.url).pathname;

/**
 * What a test holds of the file's Chromium: contexts and pages of its own, which
 * `close()` closes (the browser stays for the file's next test).
 */
export type TestBrowser = Pick<Browser, "newContext" | "newPage" | "close">;

/**
 * The environment variable that hands a test file the layer's running Chromium: its
 * Playwright server's WebSocket address (see {@linkcode serveChromium}).
 */
export const SERVER_ENV = "AGENT_TEST_CHROMIUM";

/** The file's Chromium: its own, or its connection to the layer's. */
let running: Promise<Browser> | undefined;

// A test file runs in its own isolate: its Chromium ends (or its connection closes, and
// the server closes the contexts it made) with its last test.
Deno.test.afterAll(async () => {
  const browser = running;
  running = undefined;
  if (browser !== undefined) await (await browser).close();
});

/**
 * Headless Chromium (with `--no-sandbox`), shared by a file's tests: a launch and its
 * close cost ~2 s of CPU on this machine (5 launches against 5 fresh contexts in one
 * browser: 10.6 s more), and a context shares nothing (storage, cookies, cache) with
 * another. Under {@linkcode serveChromium} (`deno task test:browser`) the file connects
 * to the layer's Chromium instead; run alone, it launches one.
 */
export async function launch(): Promise<TestBrowser> {
  let started = running;
  if (started === undefined) {
    const endpoint = Deno.env.get(SERVER_ENV) || undefined;
    started = endpoint === undefined
      ? chromium.launch({ executablePath: CHROMIUM!, args: ["--no-sandbox"] })
      : chromium.connect(endpoint);
    running = started;
    started.catch(() => {
      if (running === started) running = undefined;
    });
  }
  const browser = await started;
  const mine = new Set<BrowserContext>();
  return {
    async newContext(options) {
      const context = await browser.newContext(options);
      mine.add(context);
      return context;
    },
    async newPage(options) {
      const page = await browser.newPage(options);
      mine.add(page.context());
      return page;
    },
    async close() {
      for (const context of mine) await context.close();
      mine.clear();
    },
  };
}

/** The layer's Chromium, as {@linkcode serveChromium} started it. */
export interface ServedChromium {
  /** Its address, the value of {@linkcode SERVER_ENV} for the test files. */
  endpoint: string;
  /** Ends the Chromium (and its renderers). */
  close(): Promise<void>;
}

/**
 * Starts one Chromium for the browser layer, behind a Playwright server on loopback that
 * the layer's test files connect to: one launch for the layer instead of one per file
 * (~2 CPU-s each). Every file still makes fresh contexts, and a file's contexts are
 * closed when its connection closes (even if the file crashed). The map's WebGL needs no
 * flags of its own: Playwright's defaults draw it with SwiftShader, the same renderer
 * `--enable-unsafe-swiftshader --ignore-gpu-blocklist` gave (in `chromium` too).
 */
export async function serveChromium(): Promise<ServedChromium> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM!,
    args: ["--no-sandbox"],
    host: "127.0.0.1",
    port: 0,
    // The layer's runner ends the server itself, after the tests.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  return {
    endpoint: server.wsEndpoint(),
    async close() {
      await server.close();
    },
  };
}

/** Collects console errors, warnings and page errors (a CSP violation is one). */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(String(e)));
  return problems;
}

/** Waits until the page's current view is drawn. */
export async function ready(page: Page): Promise<void> {
  await page.waitForSelector("main[data-ready='true']", { timeout: 15_000 });
}

/**
 * Makes `theme` the dashboard's theme as a person picks it: from the theme menu, which
 * stores the choice and redraws the page in place. A reload did it once; each cost
 * ~0.5 CPU-second of Chromium (nine in `dashboard_test.ts`'s accessibility pass). A page
 * without the menu (signed out) gets the choice stored and is loaded again, so the page
 * and a menu drawn later agree (stored alone, the menu drawn next names a theme the page
 * does not show).
 */
export async function useTheme(page: Page, theme: "auto" | "light" | "dark"): Promise<void> {
  if (await page.locator("#theme").count() > 0) {
    await page.selectOption("#theme", theme);
  } else {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await ready(page);
  }
  await assertOneTheme(page);
}

/** Throws unless the page shows the theme its menu names (for a screenshot's sake). */
export async function assertOneTheme(page: Page): Promise<void> {
  const { shown, menu } = await page.evaluate(() => ({
    shown: document.documentElement.dataset.theme ?? "auto",
    menu: (document.getElementById("theme") as HTMLSelectElement | null)?.value,
  }));
  if (menu !== undefined && shown !== menu) {
    throw new Error(`The theme menu says '${menu}' over a page drawn '${shown}'.`);
  }
}

/**
 * Throws unless the page fits its viewport's width: the document does not scroll
 * sideways, no table scrolls inside its wrapper, and every table cell shows all of its
 * content inside its table; where the table's head is hidden (a phone) each cell of text
 * shows its label before it. `where` names the view in the message.
 */
export async function assertFits(page: Page, where: string): Promise<void> {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > innerWidth) {
      found.push(`the page is ${root.scrollWidth}px wide in a ${innerWidth}px window`);
    }
    for (const wrap of document.querySelectorAll<HTMLElement>(".table-wrap")) {
      const name = wrap.getAttribute("aria-label") ?? wrap.getAttribute("aria-labelledby");
      if (wrap.scrollWidth > wrap.clientWidth) {
        found.push(`table '${name}' scrolls: ${wrap.scrollWidth}px in ${wrap.clientWidth}px`);
      }
      const box = wrap.getBoundingClientRect();
      // The phone's layout hides the head off-screen; the cells must name themselves then.
      const head = wrap.querySelector("thead");
      const headHidden = head !== null && getComputedStyle(head).position === "absolute";
      for (const cell of wrap.querySelectorAll<HTMLElement>("tbody th, tbody td")) {
        const r = cell.getBoundingClientRect();
        const text = (cell.textContent ?? "").trim();
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5) {
          found.push(`'${text}' in '${name}' reaches past its table`);
        }
        if (cell.scrollWidth > cell.clientWidth) {
          found.push(`'${text}' in '${name}' is cut off (${cell.scrollWidth}/${cell.clientWidth})`);
        }
        // A cell of buttons (a contact's Accept, a job's Run now) names itself.
        if (headHidden && cell.tagName === "TD" && cell.querySelector("button, a") === null) {
          const before = getComputedStyle(cell, "::before").content;
          if (cell.dataset.label === undefined || before !== JSON.stringify(cell.dataset.label)) {
            found.push(`'${text}' in '${name}' shows no label (${before})`);
          }
        }
      }
    }
    return found;
  });
  if (problems.length > 0) throw new Error(`${where} does not fit: ${problems.join("; ")}`);
}

/**
 * The text of a finished download, read through Playwright's stream: `download.path()`
 * is only there when the test launched Chromium itself, not when it is connected to
 * the layer's ({@linkcode serveChromium}).
 */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of await download.createReadStream()) {
    chunks.push(chunk as Uint8Array<ArrayBuffer>);
  }
  return await new Blob(chunks).text();
}

/** The `sessionStorage` key the page keeps its session token under (`client/api.ts`). */
export const SESSION_KEY = "agent_dashboard_session";

/** Options for {@linkcode pageApi}. */
export interface PageApiOptions {
  /** @default "GET" */
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Send the session's CSRF token (asked for first) on a `POST`. @default true */
  csrf?: boolean;
}

/**
 * Calls `<base>/api/<path>` from inside the signed-in page, as its own script does: the
 * session token from `sessionStorage` in `X-Agent-Session`, and on a `POST` the CSRF
 * token. Answers the status and the body's text.
 */
export async function pageApi(
  page: Page,
  path: string,
  options: PageApiOptions = {},
): Promise<{ status: number; text: string }> {
  return await page.evaluate(async ({ path, options, key }) => {
    const base = document.getElementById("app")?.dataset.base ?? "/dashboard";
    const session = { "x-agent-session": sessionStorage.getItem(key) ?? "" };
    const method = options.method ?? "GET";
    const headers: Record<string, string> = { ...session };
    if (method === "POST" && options.csrf !== false) {
      const res = await fetch(`${base}/api/session`, { headers: session });
      headers["x-csrf-token"] = ((await res.json()) as { csrf: string }).csrf;
    }
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${base}/api/${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return { status: res.status, text: await res.text() };
  }, { path, options, key: SESSION_KEY });
}

/** A one-time sign-in code from the control API at `base`, asked as `agent dashboard` asks. */
export async function signInCode(base: string, token: string): Promise<string> {
  const res = await fetch(`${base}/dashboard/code`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await res.json() as { code?: string };
  if (!res.ok || body.code === undefined) throw new Error(`no code: ${res.status}`);
  return body.code;
}

/** Options for {@linkcode signedIn}. */
export interface SignedInOptions {
  /** @default { width: 1280, height: 800 } */
  viewport?: { width: number; height: number };
  /** A page to open once signed in (`settings`, `jobs`), drawn before it answers. */
  view?: string;
  /**
   * Give the pages Playwright's clock (time flows as usual until the test pauses it), so a
   * test can hold the page's time still instead of racing it on a loaded machine.
   */
  clock?: boolean;
}

/** A signed-in page of the dashboard at `loginUrl`, in a fresh context. */
export async function signedIn(
  browser: TestBrowser,
  loginUrl: string,
  options: SignedInOptions = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  if (options.clock) await context.clock.install();
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(loginUrl);
  await ready(page);
  if (options.view !== undefined) {
    await page.goto(new URL(`#/${options.view}`, loginUrl).href);
    await ready(page);
  }
  return { context, page, problems };
}
