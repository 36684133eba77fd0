// The static pages, the footer, the not-found page and the application-error screen,
// in real Chromium against the built app.
//
// How the error test throws inside a route without shipping a crash button: the static pages are
// loaded on demand (React.lazy), each from its own file in dist/assets. The test intercepts the
// request for TermsPage-*.js and answers with a module whose TermsPage component throws while
// rendering, so the error is thrown by a real route's component in the production build, and the
// error boundary around the routes has to catch it. A second test makes the same file fail to
// load at all, the real-world case (a deploy replaced the files, the network dropped) where
// 'Reload App' is exactly the cure. Nothing test-only is compiled into the app.

import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshotPath, startTestApp, type TestApp } from "./browser";
import { STATIC_PAGES } from "./routes";

const TERMS_CHUNK = /\/assets\/TermsPage-[^/]+\.js$/;
const SCIENCE_CHUNK = /\/assets\/SciencePage-[^/]+\.js$/;
const THROWN = "Test: TermsPage threw while rendering";

let app: TestApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const backLinks = (p: Page) => p.getByRole("main").getByRole("link", { name: "Back to Home" });
const errorHeading = (p: Page) => p.getByRole("heading", { level: 1, name: "Something went wrong" });

describe("static pages", () => {
  for (const { path, heading } of STATIC_PAGES) {
    it(`${path} renders its heading, a back-to-home link and its title`, async () => {
      await page.goto(app.url + path);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
      expect(await backLinks(page).count()).toBe(2); // above the heading and after the text
      expect(await page.title()).toBe(`${heading} | Tone Studio`);
      // Real text, not a placeholder: every page has several sections of prose.
      expect(await page.locator("main h2").count()).toBeGreaterThanOrEqual(3);
      expect((await page.getByRole("main").innerText()).length).toBeGreaterThan(1500);
      await backLinks(page).first().click();
      await page.waitForURL(app.url + "/");
      await page.getByRole("heading", { level: 1, name: "Precise tones for focus, sleep and meditation" }).waitFor();
    });
  }

  it("the legal pages carry their versions and dates", async () => {
    await page.goto(app.url + "/terms");
    await page.getByText("Version 2.0, effective August 1, 2025").waitFor();
    await page.goto(app.url + "/privacy");
    await page.getByText("Version 3.0, effective August 1, 2025").waitFor();
    await page.goto(app.url + "/licensing");
    await page.getByText("Updated June 17, 2025").waitFor();
    await page.goto(app.url + "/support");
    await page.getByText("We reply in about 24 hours on business days.").waitFor();
    for (const name of ["Terms of Service", "Privacy Policy", "Licensing Terms"]) {
      expect(await page.getByRole("main").getByRole("link", { name }).count()).toBeGreaterThan(0);
    }
  });

  it("a link to a section of another page (support's refunds answer) lands on that section", async () => {
    await page.goto(app.url + "/support");
    await page.getByRole("main").getByRole("link", { name: "Terms of Service" }).first().click();
    await page.waitForURL(app.url + "/terms#refunds");
    const refunds = page.getByRole("heading", { level: 2, name: "Refunds" });
    await refunds.waitFor();
    await expect
      .poll(() => refunds.evaluate((h) => { const r = h.getBoundingClientRect(); return r.top >= -1 && r.bottom <= window.innerHeight; }))
      .toBe(true);
  });

  it("the footer links every static page and states the disclaimer; following one lands on its heading", async () => {
    await page.goto(app.url + "/");
    const footer = page.getByRole("contentinfo");
    await footer.getByText("For experimental and entertainment use only. No medical claims are made", { exact: false }).waitFor();
    const nav = footer.getByRole("navigation", { name: "Legal and information" });
    const hrefs = await nav.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(["/how-it-works", "/science", "/terms", "/privacy", "/licensing", "/support"]);
    await nav.getByRole("link", { name: "Privacy Policy" }).click();
    await page.waitForURL(app.url + "/privacy");
    const heading = page.getByRole("heading", { level: 1, name: "Privacy Policy" });
    await heading.waitFor();
    // Focus follows the navigation to the new page's heading, and the page starts at its top.
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it("the hero invites a visitor to a free account; the studio explains how its frequencies are made", async () => {
    await page.goto(app.url + "/");
    const hero = page.getByRole("region", { name: "Precise tones for focus, sleep and meditation" });
    await hero.getByText("Instant access. A verification e-mail follows; verifying is optional.").waitFor();
    expect(await hero.getByRole("link", { name: "Create Free Account" }).getAttribute("href")).toBe("/auth?view=sign_up");
    await page.getByRole("heading", { level: 2, name: "How the tones are generated" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Benefits" }).waitFor();
  });

  it("an unknown address shows the not-found page with the address and a way home", async () => {
    await page.goto(app.url + "/no/such/page");
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    await page.getByText("/no/such/page", { exact: true }).waitFor();
    expect(await page.title()).toBe("Page not found | Tone Studio");
    await page.getByRole("main").getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL(app.url + "/");
  });
});

describe("the application-error screen", () => {
  const throwingTerms = (route: Route) =>
    route.fulfill({
      contentType: "text/javascript",
      body: `export function TermsPage() { throw new Error(${JSON.stringify(THROWN)}); }`,
    });

  it("a route that throws while rendering shows the error screen inside the page frame; Reload App recovers", async () => {
    await page.route(TERMS_CHUNK, throwingTerms);
    await page.goto(app.url + "/terms");
    await errorHeading(page).waitFor();
    await expect.poll(() => errorHeading(page).evaluate((h) => h === document.activeElement)).toBe(true);
    expect(await page.title()).toBe("Application error | Tone Studio");
    await page.getByRole("button", { name: "Reload App" }).waitFor();
    await page.getByRole("button", { name: "Home" }).waitFor();
    // The header and the footer are still there, and the details name the error.
    await page.getByRole("banner").getByRole("link", { name: "Science" }).waitFor();
    await page.getByRole("contentinfo").getByRole("link", { name: "Support" }).waitFor();
    await page.getByText("Technical details").click();
    await page.getByText(THROWN, { exact: false }).waitFor();

    await page.unroute(TERMS_CHUNK, throwingTerms);
    await page.getByRole("button", { name: "Reload App" }).click();
    await page.getByRole("heading", { level: 1, name: "Terms of Service" }).waitFor();
    expect(page.url()).toBe(app.url + "/terms");
  });

  it("a page whose code fails to load shows the error screen; another page still opens, and Home goes to the studio", async () => {
    await page.goto(app.url + "/");
    await page.getByRole("heading", { level: 1, name: "Precise tones for focus, sleep and meditation" }).waitFor();
    const abort = (route: Route) => route.abort("failed");
    await page.route(SCIENCE_CHUNK, abort);
    await page.getByRole("banner").getByRole("link", { name: "Science" }).click();
    await errorHeading(page).waitFor();
    // The boundary clears on navigation: the frame's links still lead somewhere.
    await page.getByRole("contentinfo").getByRole("link", { name: "Support" }).click();
    await page.getByRole("heading", { level: 1, name: "Support" }).waitFor();
    await page.getByRole("banner").getByRole("link", { name: "Science" }).click();
    await errorHeading(page).waitFor();
    await page.getByRole("button", { name: "Home" }).click();
    await page.waitForURL(app.url + "/");
    await page.getByRole("heading", { level: 1, name: "Precise tones for focus, sleep and meditation" }).waitFor();
    await page.unroute(SCIENCE_CHUNK, abort);
  });
});

describe("layout at desktop and phone widths", () => {
  it("static pages, the not-found page and the error screen fit 1280, 390 and 320 px (WCAG reflow) without sideways scrolling", async () => {
    const shots = await browser.newPage();
    const throwingTerms = (route: Route) =>
      route.fulfill({ contentType: "text/javascript", body: `export function TermsPage() { throw new Error(${JSON.stringify(THROWN)}); }` });
    for (const width of [1280, 390, 320]) {
      await shots.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      for (const [name, path, heading] of [
        ["science", "/science", STATIC_PAGES[1].heading],
        ["licensing", "/licensing", "Licensing Terms"],
        ["support", "/support", "Support"],
        ["not-found", "/no-such-page", "Page not found"],
      ] as const) {
        await shots.goto(app.url + path);
        await shots.getByRole("heading", { level: 1, name: heading }).waitFor();
        await shots.screenshot({ path: screenshotPath(`page-${name}-${width}.png`), fullPage: true });
        expect(await shots.evaluate(() => document.documentElement.scrollWidth), `${path} at ${width} px`).toBeLessThanOrEqual(width);
      }
      await shots.route(TERMS_CHUNK, throwingTerms);
      await shots.goto(app.url + "/terms");
      await errorHeading(shots).waitFor();
      await shots.screenshot({ path: screenshotPath(`page-error-${width}.png`), fullPage: true });
      expect(await shots.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shots.unroute(TERMS_CHUNK, throwingTerms);
    }
    await shots.close();
  });
});
