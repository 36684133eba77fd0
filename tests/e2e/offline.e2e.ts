// The installed studio without a network, in real Chromium with the app's own service worker
// (web/pwa/sw.ts; the other e2e files block it, tests/e2e/browser.ts): after one signed-in visit
// online, the worker controls the page and holds the build; a second page in the same browser
// profile with the network cut loads the studio, stands on the entitlement cached on the device
// (Pro while it is current) and plays, and the analyser hears the tone. An expired cached
// entitlement leaves the studio at the free level. Nothing from /api is in Cache Storage, and an
// anonymous visit stores no entitlement. A new build deployed while the app is open is offered
// with a toast whose Reload action brings it in.

import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, startTestApp, until, type TestApp } from "./browser";
import { FREE_LABEL, openSignedIn, registerProAccount, type TestAccount } from "./session";
import { FADE_IN_DEFAULT_SECONDS } from "../../dsp/host/schema/levels";

const PRO_LABEL = "Pro User (59 min max)";
const ENTITLEMENT_KEY = "tone-studio:entitlement";
const DAY = 86_400_000;

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let pro: TestAccount;
const pageErrors: string[] = [];

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  return page;
}

/** Dominant frequency (Hz) and level (dB) the studio's spectrum analyser hears. */
function dominant(page: Page): Promise<{ hz: number; db: number }> {
  return page.evaluate(async () => {
    const { audio } = (window as unknown as { __toneStudio: { audio: { spectrumAnalyser: AnalyserNode; context: AudioContext } } }).__toneStudio;
    const a = audio.spectrumAnalyser;
    const bins = new Float32Array(a.frequencyBinCount);
    await new Promise((r) => setTimeout(r, 150));
    a.getFloatFrequencyData(bins);
    let k = 1;
    for (let i = 1; i < bins.length; i++) if (bins[i] > bins[k]) k = i;
    return { hz: (k * audio.context.sampleRate) / a.fftSize, db: bins[k] };
  });
}

/** Every URL path in the page's Cache Storage, cache by cache. */
function cachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) paths.push(new URL(req.url).pathname);
    }
    return paths;
  });
}

/** Whether the page can reach the server at all (the network is really cut when it cannot). */
function serverReachable(page: Page): Promise<boolean> {
  return page.evaluate(() => fetch("/api/health", { cache: "no-store" }).then(() => true, () => false));
}

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
  // The one browser profile of a phone: pages share the service worker and localStorage.
  context = await browser.newContext({ serviceWorkers: "allow" });
  pro = await registerProAccount(app);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("installable and offline", () => {
  it("an anonymous visit installs the worker, precaches the build and caches nothing private", async () => {
    const page = await newPage();
    await page.goto(app.url + "/");
    await page.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    // The manifest the page links, with its icons served.
    const manifestHref = await page.locator("link[rel=manifest]").getAttribute("href");
    const manifest = (await (await page.request.get(app.url + manifestHref)).json()) as { name: string; display: string; start_url: string; icons: { src: string; sizes: string }[] };
    expect(manifest).toMatchObject({ name: "Tone Studio", display: "standalone", start_url: "/" });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    for (const icon of manifest.icons) {
      const res = await page.request.get(app.url + icon.src);
      expect(res.status(), icon.src).toBe(200);
    }
    // The worker takes control of this first page once it has precached the build.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    // Chromium's own verdict: the manifest parses cleanly and nothing stops an install but the
    // test's incognito profile (every Playwright context is one).
    const cdp = await context.newCDPSession(page);
    const parsed = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
    expect(parsed.url).toBe(app.url + "/manifest.webmanifest");
    expect(parsed.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito")).toEqual([]);
    await cdp.detach();
    const paths = await cachedPaths(page);
    expect(paths).toContain("/index.html");
    expect(paths.some((p) => /^\/assets\/engine-.*\.wasm$/.test(p))).toBe(true);
    expect(paths.some((p) => /^\/assets\/engine\.worklet-.*\.js$/.test(p))).toBe(true);
    expect(paths.filter((p) => p.startsWith("/api/"))).toEqual([]);
    expect(await page.evaluate((key) => localStorage.getItem(key), ENTITLEMENT_KEY)).toBeNull();
    await page.close();
  });

  it("after one signed-in visit, a page with the network cut loads the studio as Pro and plays", async () => {
    const online = await newPage();
    await openSignedIn(online, app.url, pro, "/");
    await online.getByText(PRO_LABEL).waitFor();
    await online.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    const entry = await online.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "null") as { checkedAt: number; expiresAt: number } | null, ENTITLEMENT_KEY);
    expect(entry).not.toBeNull();
    expect(entry!.expiresAt - entry!.checkedAt).toBe(7 * DAY); // the subscription runs 30 days; the week of trust is shorter
    await online.close();

    await context.setOffline(true);
    const page = await newPage();
    await page.goto(app.url + "/");
    expect(await serverReachable(page)).toBe(false);
    await page.getByText(PRO_LABEL).waitFor();
    // Pro: all four channels usable. One tone, to hear it clearly.
    for (const i of [2, 3, 4]) await page.getByRole("switch", { name: `Channel ${i} on/off` }).uncheck();
    await page.getByLabel("Channel 1 frequency (Hz)").fill("1000");
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    const heard = await until(() => dominant(page), (d) => Math.abs(d.hz - 1000) < 60 && d.db > -60, { timeout: FADE_IN_DEFAULT_SECONDS * 1000 + 5000 });
    expect(Math.abs(heard.hz - 1000)).toBeLessThan(60);
    expect(heard.db).toBeGreaterThan(-60);
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await page.getByRole("button", { name: "Play Audio" }).waitFor();
    expect((await cachedPaths(page)).filter((p) => p.startsWith("/api/"))).toEqual([]);
    await page.close();
  });

  it("offline, an expired cached entitlement does not unlock Pro: the studio opens at the free level", async () => {
    const page = await newPage();
    await page.goto(app.url + "/");
    await page.getByText(PRO_LABEL).waitFor();
    // Eight days on: the week of trust since the server's last answer has run out.
    await page.evaluate((key) => {
      const entry = JSON.parse(localStorage.getItem(key)!) as { checkedAt: number; expiresAt: number };
      const shift = entry.checkedAt - (Date.now() - 8 * 86_400_000);
      localStorage.setItem(key, JSON.stringify({ ...entry, checkedAt: entry.checkedAt - shift, expiresAt: entry.expiresAt - shift }));
    }, ENTITLEMENT_KEY);
    await page.reload();
    await page.getByText(FREE_LABEL).waitFor();
    expect(await page.getByText(PRO_LABEL).count()).toBe(0);
    await page.locator("[data-sonner-toast]", { hasText: "Connect to the internet to unlock Pro." }).waitFor();
    expect(await page.getByLabel("Channel 2 frequency (Hz)").isDisabled()).toBe(true);
    // Still signed in (the session was not refused, only not confirmed), and channel 1 plays.
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).not.toBeNull();
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    await page.getByRole("button", { name: "Stop Audio" }).click();

    // Back online, the server is asked again and Pro returns.
    await context.setOffline(false);
    await page.reload();
    await page.getByText(PRO_LABEL).waitFor();
    await page.close();
  });

  it("a new build deployed while the app is open is offered with a toast; Reload brings it in", async () => {
    // A server of its own on a copy of the build, so the "deploy" can change it.
    const dir = mkdtempSync(join(tmpdir(), "tone-e2e-dist-"));
    cpSync(join(process.cwd(), "dist"), dir, { recursive: true });
    const deployed = await startTestApp({ distDir: dir });
    try {
      const page = await newPage();
      await page.goto(deployed.url + "/");
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
      expect(await page.getByText("A new version of Tone Studio is ready.").count()).toBe(0);
      // The next build's service worker differs from the running one (as a new precache list would).
      appendFileSync(join(dir, "sw.js"), "\n// the next build\n");
      await page.evaluate(() => (window as unknown as { __before: boolean }).__before = true);
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
      const toast = page.locator("[data-sonner-toast]", { hasText: "A new version of Tone Studio is ready." });
      await toast.waitFor({ timeout: 30_000 });
      await Promise.all([page.waitForEvent("load"), toast.getByRole("button", { name: "Reload" }).click()]);
      await page.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
      expect(await page.evaluate(() => "__before" in window)).toBe(false); // a new document
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting)).toBeNull();
      await page.close();
    } finally {
      await deployed.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("raised no uncaught error on any page", () => {
    expect(pageErrors).toEqual([]);
  });
});
