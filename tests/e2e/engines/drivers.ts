// The three browser engines the studio is tested in, behind one small driver interface, so one
// smoke suite (tests/e2e/engines/smoke.ts) runs unchanged in each:
//
// - Chromium: playwright-core, as every other e2e file (tests/e2e/browser.ts).
// - Firefox: Debian's firefox-esr, driven by puppeteer-core over WebDriver BiDi, headless, with a
//   private PulseAudio server holding a null sink (headless Firefox plays no audio without an
//   audio device: its AudioContext stays suspended).
// - WebKit: WebKitGTK (Safari's engine), driven by Debian's WebKitWebDriver (W3C WebDriver, as
//   safaridriver) under xvfb-run, with the storage features Safari ships switched on, in two
//   profiles: a persistent one (webkit-profile-browser.py, the same library through
//   gir1.2-webkit2-4.1: OPFS works, and a file handle cannot be cloned to a worker, as in Safari)
//   and MiniBrowser's, which is ephemeral under automation: there WebKit refuses the Origin
//   Private File System (getDirectory: UnknownError) and the studio exports through its
//   in-memory fallback, as in Safari's private browsing.
//
// Every engine keeps its own autoplay policy, WebKit as strict as iOS Safari (no media playback
// without a user gesture, autoplay denied): clicks and typing go through each browser's own input
// (trusted events), so Play must start the sound from the click, as for a person on a first visit.
// Everything else is read in the page. Each engine is found on this machine or reported
// missing with the package that brings it (findEngine), so `npm test` passes without them;
// TONE_STUDIO_ENGINES (e.g. "chromium,webkit") chooses some.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser as PwBrowser, Page as PwPage } from "playwright-core";
import { findChromium, onPath } from "../../../api/platform/binaries";
import { CHROMIUM_ARGS, launchChromium } from "../browser";
import { WebDriverSession } from "./webdriver";

export type EngineName = "chromium" | "firefox" | "webkit";

export interface EngineDriver {
  readonly engine: EngineName;
  /** The browser's own version string. */
  readonly version: string;
  goto(url: string): Promise<void>;
  /** Runs `fn` in the page (it may be async) and returns its JSON-able result. */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  /** A trusted click on the first element matching the CSS selector. */
  click(selector: string): Promise<void>;
  /** Replaces a text field's value by typing `text`. */
  fill(selector: string, text: string): Promise<void>;
  /** Chooses files (absolute paths) in a file input, hidden ones included. */
  upload(selector: string, paths: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Safari's storage features, off by default in WebKitGTK: the Storage API (navigator.storage),
 *  its estimate, the File System API (OPFS), its writable streams and the sync access handle. */
export const WEBKIT_FEATURES = ["StorageAPI", "StorageAPIEstimate", "FileSystem", "FileSystemWritableStream", "AccessHandle"];

export interface FoundEngine {
  engine: EngineName;
  /** What runs it, or null with `missing` saying what to install. */
  paths: Record<string, string> | null;
  missing?: string;
}

function miniBrowser(): string | null {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  for (const lib of ["/usr/lib", "/usr/libexec"]) {
    if (!existsSync(lib)) continue;
    for (const arch of [".", ...readdirSync(lib)]) {
      for (const api of ["webkit2gtk-4.1", "webkit2gtk-4.0", "webkitgtk-6.0"]) {
        const p = join(lib, arch, api, "MiniBrowser");
        if (existsSync(p)) return p;
      }
    }
  }
  return null;
}

const PROFILE_BROWSER = fileURLToPath(new URL("./webkit-profile-browser.py", import.meta.url));

/** Whether the persistent-profile WebKit browser can start: Debian's python3 with PyGObject and
 *  WebKitGTK's introspection data (apt-get install python3-gi gir1.2-webkit2-4.1). */
function profileBrowserWorks(): boolean {
  const probe = spawnSync("/usr/bin/python3", ["-c", "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2"], { stdio: "ignore" });
  return probe.status === 0;
}

/** Whether this machine can run `engine`, and with what. */
export async function findEngine(engine: EngineName): Promise<FoundEngine> {
  // TONE_STUDIO_ENGINES=chromium,firefox runs only those (the others report why they did not).
  const only = (process.env.TONE_STUDIO_ENGINES ?? "").split(",").map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (only.length > 0 && !only.includes(engine)) return { engine, paths: null, missing: `left out by TONE_STUDIO_ENGINES=${only.join(",")}` };
  if (engine === "chromium") {
    const found = await findChromium();
    return found ? { engine, paths: { chromium: found.path } } : { engine, paths: null, missing: "no Chromium (apt-get install chromium, or npm install)" };
  }
  if (engine === "firefox") {
    const firefox = process.env.FIREFOX_PATH ?? onPath(["firefox-esr", "firefox"]);
    const pulse = onPath(["pulseaudio"]);
    if (!firefox) return { engine, paths: null, missing: "no Firefox (apt-get install firefox-esr, or set FIREFOX_PATH)" };
    if (!pulse) return { engine, paths: null, missing: "no PulseAudio for headless Firefox's audio (apt-get install pulseaudio)" };
    return { engine, paths: { firefox, pulseaudio: pulse } };
  }
  const driver = process.env.WEBKIT_DRIVER_PATH ?? onPath(["WebKitWebDriver"]);
  const browser = miniBrowser();
  const xvfb = onPath(["xvfb-run"]);
  if (!driver || !browser) return { engine, paths: null, missing: "no WebKitGTK WebDriver and MiniBrowser (apt-get install webkit2gtk-driver)" };
  if (!xvfb) return { engine, paths: null, missing: "no xvfb-run for WebKitGTK's window (apt-get install xvfb xauth)" };
  const paths: Record<string, string> = { driver, browser, xvfb };
  if (profileBrowserWorks()) paths.profileBrowser = PROFILE_BROWSER;
  return { engine, paths };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** The detached process groups started here that are still running: ended when this process
 *  exits, also after a failed or interrupted test (a PulseAudio started with --exit-idle-time=-1
 *  would otherwise stay). */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) killGroup(child);
});

/** Starts `command` detached, in a process group of its own, and remembers it. */
function spawnGroup(command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { detached: true, stdio: "ignore", env });
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/** Ends a process started detached (its own group) and everything it started. */
function killGroup(child: ChildProcess): void {
  running.delete(child);
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

async function waitUntil(ok: () => Promise<boolean> | boolean, what: string, timeout = 15_000): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`${what} did not come up within ${timeout / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---- Chromium -------------------------------------------------------------------------------

/** Runs `fn`'s source in the page, as the other drivers do (playwright's evaluate takes the function). */
function pwEvaluate<T, A>(page: PwPage, fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
  return page.evaluate(fn as (arg: unknown) => Promise<T>, arg as unknown);
}

export async function launchChromiumDriver(): Promise<EngineDriver> {
  // Chromium's own autoplay policy (the other e2e files switch it off): sound starts from the
  // test's trusted clicks, as in Firefox and WebKit.
  const browser: PwBrowser = await launchChromium(CHROMIUM_ARGS.filter((a) => !a.startsWith("--autoplay-policy")));
  const page = await browser.newPage({ acceptDownloads: false });
  page.on("pageerror", (e) => console.error("chromium page error:", e.message));
  return {
    engine: "chromium",
    version: browser.version(),
    goto: async (url) => void (await page.goto(url)),
    evaluate: (fn, arg) => pwEvaluate(page, fn, arg),
    click: (selector) => page.locator(selector).first().click(),
    fill: (selector, text) => page.locator(selector).first().fill(text),
    upload: (selector, paths) => page.locator(selector).first().setInputFiles(paths),
    close: () => browser.close(),
  };
}

// ---- Firefox --------------------------------------------------------------------------------

/** A PulseAudio server of its own (no system daemon, no D-Bus) with one null sink, for the
 *  browser to play into; `server` is its socket, for PULSE_SERVER. */
async function startPulse(pulseaudio: string): Promise<{ server: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), "tone-pulse-"));
  const socket = join(dir, "native");
  const child = spawnGroup(
    pulseaudio,
    ["-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm=yes", "--use-pid-file=no", "-L", "module-null-sink sink_name=null", "-L", `module-native-protocol-unix socket=${socket} auth-anonymous=1`],
    { ...process.env, HOME: dir, XDG_RUNTIME_DIR: dir, XDG_CONFIG_HOME: dir },
  );
  await waitUntil(() => existsSync(socket), "PulseAudio");
  return {
    server: `unix:${socket}`,
    stop: () => {
      killGroup(child);
      setTimeout(() => rmSync(dir, { recursive: true, force: true }), 500).unref();
    },
  };
}

export async function launchFirefoxDriver(paths: Record<string, string>): Promise<EngineDriver> {
  const puppeteer = (await import("puppeteer-core")).default;
  const pulse = await startPulse(paths.pulseaudio);
  let browser: Awaited<ReturnType<typeof puppeteer.launch>>;
  try {
    browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: paths.firefox,
      headless: true,
      // The window's size, not an emulated viewport: Firefox 140's BiDi lacks the screen
      // orientation override puppeteer's setViewport sends.
      defaultViewport: null,
      args: ["--window-size=1280,900"],
      env: { ...(process.env as Record<string, string>), PULSE_SERVER: pulse.server },
      // Firefox's own autoplay policy (audible autoplay blocked): sound starts from the test's
      // trusted clicks, as from a person's.
      extraPrefsFirefox: {
        // Downloads go to a temp folder without asking.
        "browser.download.folderList": 2,
        "browser.download.dir": tmpdir(),
        "browser.download.useDownloadDir": true,
        "browser.download.always_ask_before_handling_new_types": false,
      },
    });
  } catch (err) {
    pulse.stop();
    throw err;
  }
  let page: Awaited<ReturnType<typeof browser.newPage>>;
  let version: string;
  try {
    page = await browser.newPage();
    version = await browser.version();
  } catch (err) {
    await browser.close().catch(() => undefined);
    pulse.stop();
    throw err;
  }
  page.on("pageerror", (e) => console.error("firefox page error:", (e as Error).message));
  const element = async (selector: string) => {
    const el = await page.$(selector);
    if (!el) throw new Error(`Firefox: nothing matches ${selector}`);
    return el;
  };
  return {
    engine: "firefox",
    version,
    goto: async (url) => void (await page.goto(url, { waitUntil: "load" })),
    evaluate: <T, A>(fn: (arg: A) => T | Promise<T>, arg?: A) => page.evaluate(fn as (arg: unknown) => Promise<T>, arg as unknown) as Promise<T>,
    click: async (selector) => (await element(selector)).click(),
    fill: async (selector, text) => {
      const el = await element(selector);
      await el.click({ count: 3 });
      await el.type(text);
    },
    upload: async (selector, files) => {
      const el = (await element(selector)) as unknown as { uploadFile(...paths: string[]): Promise<void> };
      await el.uploadFile(...files);
    },
    close: async () => {
      await browser.close().catch(() => undefined);
      pulse.stop();
    },
  };
}

// ---- WebKit ---------------------------------------------------------------------------------

/** WebKit in its persistent profile (OPFS) when `ephemeral` is false and this machine has the
 *  profile browser, else in MiniBrowser's ephemeral one (no OPFS). */
export async function launchWebKitDriver(paths: Record<string, string>, ephemeral = false): Promise<EngineDriver> {
  const persistent = !ephemeral && Boolean(paths.profileBrowser);
  const port = await freePort();
  const pulseBin = onPath(["pulseaudio"]);
  const pulse = pulseBin ? await startPulse(pulseBin) : null;
  const home = mkdtempSync(join(tmpdir(), "tone-webkit-"));
  const child = spawnGroup(paths.xvfb, ["-a", "-s", "-screen 0 1280x1024x24", paths.driver, `--port=${port}`, "--host=127.0.0.1"], {
    ...process.env,
    HOME: home,
    XDG_RUNTIME_DIR: home,
    ...(pulse ? { PULSE_SERVER: pulse.server } : {}),
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    killGroup(child);
    pulse?.stop();
    setTimeout(() => rmSync(home, { recursive: true, force: true }), 500).unref();
  };
  let session: WebDriverSession;
  try {
    await waitUntil(() => fetch(`${base}/status`).then((r) => r.ok, () => false), "WebKitWebDriver");
    const features = `--features=${WEBKIT_FEATURES.map((f) => `+${f}`).join(",")}`;
    const browserOptions = persistent
      ? { binary: paths.profileBrowser, args: [`--data-dir=${join(home, "profile")}`, features] }
      : { binary: paths.browser, args: ["--automation", features, "--autoplay-policy=deny", "--media-playback-requires-user-gesture=true"] };
    session = await WebDriverSession.create(base, { browserName: "MiniBrowser", "webkitgtk:browserOptions": browserOptions });
    await session.setTimeouts({ script: 300_000, pageLoad: 60_000 });
  } catch (err) {
    stop();
    throw err;
  }
  return {
    engine: "webkit",
    version: `WebKitGTK ${String(session.capabilities.browserVersion ?? "?")}, ${persistent ? "persistent profile" : "MiniBrowser's ephemeral profile"}`,
    goto: (url) => session.goto(url),
    evaluate: (fn, arg) => session.evaluate(fn, arg),
    click: (selector) => session.click(selector),
    fill: (selector, text) => session.fill(selector, text),
    upload: (selector, files) => session.upload(selector, files),
    close: async () => {
      await session.close();
      stop();
    },
  };
}

/** `ephemeral`: WebKit's private profile (no OPFS) even where the persistent one can run. */
export async function launchEngine(found: FoundEngine, { ephemeral = false } = {}): Promise<EngineDriver> {
  if (!found.paths) throw new Error(`${found.engine}: ${found.missing}`);
  if (found.engine === "chromium") return launchChromiumDriver();
  if (found.engine === "firefox") return launchFirefoxDriver(found.paths);
  return launchWebKitDriver(found.paths, ephemeral);
}
