// The Content-Security-Policy of api/http/security-headers.ts against the real app in Chromium:
// every main page loads with the policy in force and nothing is refused - the studio plays (wasm
// compiled under 'wasm-unsafe-eval', the AudioWorklet from 'self'), a Pro export runs in the
// export worker (zod without `new Function`), sonner's toasts are styled without an inline
// <style>, the service worker registers and controls the pages (web/pwa/; the other e2e files
// block it) and the web app manifest loads - with zero `securitypolicyviolation` events, zero
// console errors and zero reports to the policy's report-uri (the one place a violation inside
// the export worker or the service worker shows up).

import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleMessage, Page } from "playwright-core";
import { CONTENT_SECURITY_POLICY } from "../../api/http/security-headers";
import { createLogger } from "../../api/logging";
import { launchChromium, startTestApp, waitForSeeds, type TestApp } from "./browser";
import type { Browser, BrowserContext } from "playwright-core";
import { STATIC_PAGES } from "./routes";
import { FREE_LABEL, openSignedIn, registerAccount, registerProAccount } from "./session";

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

// Runs before the app's scripts in every document (init scripts are not subject to the CSP) and
// records each violation the browser reports. The save picker stands in for the export's dialog
// (as in export.e2e.ts), writing to the Origin Private File System.
const RECORDER = `
  window.__csp = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    window.__csp.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile + ":" + e.lineNumber });
  });
  window.showSaveFilePicker = async (options) => {
    const root = await navigator.storage.getDirectory();
    return root.getFileHandle((options && options.suggestedName) || "export.wav", { create: true });
  };
`;

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
const consoleErrors: string[] = [];
/** The server's warnings and errors: POST /api/csp-report logs each violation as a warning. */
const serverLog: { msg: string; directive?: string; blocked?: string }[] = [];

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(RECORDER);
  page.on("pageerror", (e) => consoleErrors.push(`page error: ${e.message}`));
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  return page;
}

function violations(page: Page): Promise<Violation[]> {
  return page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp);
}

/** Navigates and checks the document was served with the policy. */
async function open(page: Page, path: string): Promise<void> {
  const res = await page.goto(app.url + path);
  expect(res?.headers()["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
}

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) serverLog.push(JSON.parse(line) as (typeof serverLog)[number]);
      done();
    },
  });
  app = await startTestApp({ seedMarketplace: true, logger: createLogger({ level: "warn", destination }) });
  browser = await launchChromium();
  context = await browser.newContext({ serviceWorkers: "allow" });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("Content-Security-Policy in Chromium", () => {
  it("loads the static pages, the marketplace and the auth screen without a violation", async () => {
    const page = await newPage();
    for (const { path, heading } of STATIC_PAGES) {
      await open(page, path);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      expect(await violations(page), path).toEqual([]);
    }
    await waitForSeeds(app); // the marketplace with its cards (images, audio elements)
    await open(page, "/marketplace");
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await page.locator(".sound-card").first().waitFor();
    expect(await violations(page)).toEqual([]);

    // An empty sign-up form answers with an error toast: sonner's styles come from the stylesheet.
    await open(page, "/auth?view=sign_up");
    await page.getByRole("button", { name: "Create Account" }).click();
    const toaster = page.locator("[data-sonner-toaster]");
    await page.locator("[data-sonner-toast]").first().waitFor();
    expect(await toaster.evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("plays the studio's sound with the policy in force", async () => {
    const page = await newPage();
    const account = await registerAccount(app.url);
    await openSignedIn(page, app.url, account, "/");
    await page.getByText(FREE_LABEL).waitFor();
    await page.getByRole("button", { name: "Play Audio" }).click();
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const a = (window as unknown as { __toneStudio: { audio: { waveAnalyser: AnalyserNode } } }).__toneStudio.audio.waveAnalyser;
            const data = new Float32Array(a.fftSize);
            a.getFloatTimeDomainData(data);
            return data.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
          }),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0.01);
    await page.getByRole("button", { name: "Stop Audio" }).click();
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("exports a WAV in the export worker with the policy in force", async () => {
    const page = await newPage();
    const pro = await registerProAccount(app);
    await openSignedIn(page, app.url, pro, "/");
    await page.evaluate(() => {
      const { store } = (window as unknown as { __toneStudio: { store: { setState(s: object): void } } }).__toneStudio;
      store.setState({ duration: 5 });
    });
    await page.getByRole("button", { name: "Export WAV", disabled: false }).click();
    await page.getByRole("status").filter({ hasText: "Export complete:" }).waitFor({ timeout: 30_000 });
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("registers the service worker, which controls the pages, and loads the manifest", async () => {
    const page = await newPage();
    await open(page, "/");
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>("link[rel=manifest]")!.href;
      return (await fetch(href)).ok;
    });
    expect(manifest).toBe(true);
    await open(page, "/how-it-works"); // a navigation the worker answers from its precache
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  it("logged no console error on any page and sent no violation report", async () => {
    expect(consoleErrors).toEqual([]);
    // Reports leave the browser asynchronously; give any a moment to arrive.
    await new Promise((r) => setTimeout(r, 1500));
    expect(serverLog.filter((l) => l.msg === "CSP violation")).toEqual([]);
  });
});
