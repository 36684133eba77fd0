// Launches Chromium through playwright-core (the system's, else the one @sparticuz/chromium ships:
// api/platform/binaries.ts; no browser downloads) with the flags this environment needs, and serves
// the built app from a fresh server on a random port.

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type LaunchOptions, type Page } from "playwright-core";
import { findChromium, INSTALL_HINT } from "../../api/platform/binaries";
import { startServer, type ServerOptions } from "../../api/server";
import { SEED_SOUNDS } from "../../api/services/marketplace-seed";
import type { Timeline } from "../../dsp/host/schema/timeline";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--autoplay-policy=no-user-gesture-required",
];

/** playwright-core's launch options for the Chromium api/platform/binaries.ts finds, with `args`. */
export async function chromiumLaunchOptions(args: string[] = CHROMIUM_ARGS): Promise<LaunchOptions> {
  const found = await findChromium();
  if (!found) throw new Error(`No Chromium for the end-to-end tests: ${INSTALL_HINT.chromium}.`);
  const env = Object.keys(found.env).length ? { ...(process.env as Record<string, string>), ...found.env } : undefined;
  return { executablePath: found.path, args, headless: true, env };
}

/** Chromium whose new contexts (and pages) block the app's service worker (web/pwa/) unless a
 *  test passes `serviceWorkers: "allow"`: a worker in control of the page would answer from the
 *  build it precached and take requests out of page.route()'s reach, and its precache downloads
 *  would add to every test's load. tests/e2e/offline.e2e.ts and csp.e2e.ts run the real one. */
export async function launchChromium(args: string[] = CHROMIUM_ARGS): Promise<Browser> {
  const browser = await chromium.launch(await chromiumLaunchOptions(args));
  const newContext = browser.newContext.bind(browser);
  // browser.newPage() makes its context through newContext too.
  browser.newContext = (options = {}) => newContext({ serviceWorkers: "block", ...options });
  return browser;
}

export interface TestApp {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Starts the real server (API + built web app from dist/) on a random port with a temp DATA_DIR;
 *  `options` pass through to startServer (e.g. adminEmails). The shipped marketplace sounds (three
 *  minutes of audio rendered in this process at start) are only made for a test that asks for them
 *  with `seedMarketplace: true`, then waits for them with waitForSeeds. */
export async function startTestApp(options: Omit<ServerOptions, "port" | "host" | "dataDir"> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "tone-e2e-"));
  const server = await startServer({ log: () => {}, seedMarketplace: false, ...options, port: 0, host: "127.0.0.1", dataDir });
  return {
    url: server.url,
    dataDir,
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the marketplace lists the shipped sounds (a server started with seedMarketplace:
 *  true renders them shortly after it starts, about a second each). */
export async function waitForSeeds(app: { url: string }, timeout = 150_000): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    const res = await fetch(`${app.url}/api/marketplace/sounds`);
    const { sounds } = (await res.json()) as { sounds: unknown[] };
    if (sounds.length >= SEED_SOUNDS.length) return;
    if (Date.now() > end) throw new Error(`The shipped sounds did not appear within ${timeout / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface BrowserApp {
  app: TestApp;
  browser: Browser;
  /** A page that reports the app's uncaught errors on the test's console. */
  page: Page;
  close(): Promise<void>;
}

/** The setup most e2e files share: a fresh test server, Chromium and one page on it. */
export async function startBrowserApp(
  options: Omit<ServerOptions, "port" | "host" | "dataDir"> = {},
  viewport?: { width: number; height: number },
): Promise<BrowserApp> {
  const app = await startTestApp(options);
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (err) {
    await app.close();
    throw err;
  }
  const page = await browser.newPage(viewport ? { viewport } : undefined);
  page.on("pageerror", (e) => console.error("page error:", e.message));
  return {
    app,
    browser,
    page,
    close: async () => {
      await browser.close();
      await app.close();
    },
  };
}

/** Resolves after the page has drawn `count` more animation frames: long enough for a state change
 *  caused by an input event (a click, a key) to have rendered, for checks that something did NOT
 *  happen. An event to wait for instead of a fixed sleep. */
export function nextFrames(page: Page, count = 2): Promise<void> {
  return page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
        step(count);
      }),
    count,
  );
}

/** Reads `read()` until `ok` holds for what it returned (or `timeout` ms pass) and returns the last
 *  reading, for the test to assert on with its own messages: waiting for a condition (sound settling
 *  in an analyser, a glide ending) instead of sleeping a fixed time before one reading. */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, { timeout = 5_000, interval = 50 } = {}): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() >= end) return value;
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** Waits for the toast holding `text` to be on screen with its entry animation finished (sonner
 *  slides it in with CSS transitions once it is mounted), e.g. before a screenshot or an audit. */
export async function settledToast(page: Page, text: string): Promise<void> {
  const toast = page.locator("[data-sonner-toast][data-mounted='true']", { hasText: text });
  await toast.waitFor();
  await toast.evaluate(async (el) => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined)));
  });
}

/** The studio's session timeline as its store holds it (web/main.tsx exposes the store). */
export function storedTimeline(page: Page): Promise<Timeline | undefined> {
  return page.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { timeline?: Timeline } } } }).__toneStudio.store.getState().timeline);
}

/** Where a screenshot named `name` goes: .tmp/screenshots/ (gitignored), made when missing. */
export function screenshotPath(name: string): string {
  const dir = join(process.cwd(), ".tmp", "screenshots");
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

/** Every axe-core violation of the WCAG 2.0 and 2.1 A and AA rules on the page (or inside the
 *  `include` selector), whatever its impact (minor, moderate, serious or critical); `skip` names
 *  rules not to run. axe-core is injected from node_modules: the engine @axe-core/playwright wraps,
 *  whose AxeBuilder refuses pages made by browser.newPage(), which these tests use throughout. */
export async function axeViolations(page: Page, opts: string[] | { skip?: string[]; include?: string } = []): Promise<AxeViolation[]> {
  const { skip = [], include } = Array.isArray(opts) ? { skip: opts } : opts;
  const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // Evaluated through the DevTools protocol, not added as an inline <script> (which the app's
  // Content-Security-Policy refuses): the protocol's evaluation is exempt from the page's CSP.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ skip, include }) => {
      const axe = (window as unknown as { axe: { run(ctx: unknown, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run(include ? { include: [include] } : document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
        rules: Object.fromEntries(skip.map((id) => [id, { enabled: false }])),
      });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
    },
    { skip, include },
  );
}

/** Only the serious and critical ones of axeViolations. The WCAG route audits count every impact
 *  level: prefer axeViolations. */
export async function seriousAxeViolations(page: Page, skip: string[] = []): Promise<AxeViolation[]> {
  const all = await axeViolations(page, skip);
  return all.filter((v) => v.impact === "serious" || v.impact === "critical");
}
