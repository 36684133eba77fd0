// WCAG 2.1 A/AA audit of every route: axe-core with the tags wcag2a, wcag2aa, wcag21a
// and wcag21aa on /, /auth, /subscribe, /marketplace and every static page, once as an anonymous
// visitor and once signed in with Pro, counting violations of EVERY impact level (minor and
// moderate too, not only serious and critical). Each route is scanned in the state a visitor
// actually meets, toasts included: /subscribe sends an anonymous visitor to /auth with an error
// toast, /auth sends a signed-in one to / with a welcome toast.
// One server, one browser, one page per visitor, shared by every test of the file.

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchChromium, settledToast, startTestApp, waitForSeeds, type TestApp } from "./browser";
import { STATIC_PAGES } from "./routes";
import { openSignedIn, registerProAccount } from "./session";

let app: TestApp;
let browser: Browser;
const pages: Record<"anonymous" | "pro", Page> = {} as never;

beforeAll(async () => {
  app = await startTestApp({ seedMarketplace: true }); // /marketplace is audited with its cards
  browser = await launchChromium();
  pages.anonymous = await (await browser.newContext()).newPage();
  pages.pro = await (await browser.newContext()).newPage();
  await openSignedIn(pages.pro, app.url, await registerProAccount(app));
  await pages.pro.getByRole("button", { name: /account menu/i }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function expectNoViolations(page: Page): Promise<void> {
  const found = await axeViolations(page);
  expect(found, JSON.stringify(found, null, 2)).toEqual([]);
}

/** A toast that has finished sliding in (its CSS transitions over). */
const waitForToast = settledToast;

async function openStatic(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(app.url + path);
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

describe("every route meets WCAG 2.1 A and AA (all impact levels) for an anonymous visitor", () => {
  it("/: the locked studio, its hero, sign-in card, demo cards and explanations", async () => {
    const page = pages.anonymous;
    await page.goto(app.url + "/");
    await page.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    await expectNoViolations(page);
  });

  it("/auth: the sign-in screen", async () => {
    const page = pages.anonymous;
    await page.goto(app.url + "/auth");
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    await expectNoViolations(page);
  });

  it("/subscribe: the sign-in screen it sends to, with its error toast", async () => {
    const page = pages.anonymous;
    await page.goto(app.url + "/subscribe");
    await page.waitForURL(/\/auth\?/);
    await waitForToast(page, "Please create an account or sign in to view subscription plans");
    await expectNoViolations(page);
  });

  it("/marketplace", async () => {
    const page = pages.anonymous;
    await waitForSeeds(app);
    await page.goto(app.url + "/marketplace");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.locator(".sound-card").first().waitFor();
    await expectNoViolations(page);
  });

  for (const { path, heading } of STATIC_PAGES) {
    it(path, async () => {
      await openStatic(pages.anonymous, path, heading);
      await expectNoViolations(pages.anonymous);
    });
  }
});

describe("every route meets WCAG 2.1 A and AA (all impact levels) for a signed-in Pro user", () => {
  it("/: the full studio", async () => {
    const page = pages.pro;
    await page.goto(app.url + "/");
    await expect.poll(() => page.getByRole("switch", { name: "Channel 2 on/off" }).isEnabled()).toBe(true);
    await expectNoViolations(page);
  });

  it("/auth: the studio it sends to, with its welcome toast", async () => {
    const page = pages.pro;
    await page.goto(app.url + "/auth");
    await page.waitForURL(app.url + "/");
    await waitForToast(page, "Welcome to Tone Studio");
    await expectNoViolations(page);
  });

  it("/subscribe: You're Already Pro!", async () => {
    const page = pages.pro;
    await page.goto(app.url + "/subscribe");
    await page.getByRole("heading", { name: "You're Already Pro!" }).waitFor();
    await expectNoViolations(page);
  });

  it("/marketplace", async () => {
    const page = pages.pro;
    await waitForSeeds(app);
    await page.goto(app.url + "/marketplace");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.locator(".sound-card").first().waitFor();
    await expectNoViolations(page);
  });

  for (const { path, heading } of STATIC_PAGES) {
    it(path, async () => {
      await openStatic(pages.pro, path, heading);
      await expectNoViolations(pages.pro);
    });
  }
});
