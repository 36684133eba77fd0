// Accessibility of the studio (axe-core in real Chromium): no WCAG 2.1 A/AA violations of any
// impact (minor, moderate, serious or critical) for a signed-in Pro user, for an anonymous
// visitor (the demo cards and the dimmed studio under the sign-in card, its error shown) and on
// the sign-in screen (every control labelled, contrast, names, roles). Every route for both kinds
// of visitor: a11y-routes.e2e.ts.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { axeViolations, launchChromium, startTestApp, type TestApp } from "./browser";
import { openSignedIn, registerProAccount } from "./session";

let app: TestApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("accessibility", () => {
  it("the Pro studio has no WCAG 2.1 A/AA violations of any impact", async () => {
    await openSignedIn(page, app.url, await registerProAccount(app));
    await expect.poll(() => page.getByRole("switch", { name: "Channel 2 on/off" }).isEnabled()).toBe(true);
    const found = await axeViolations(page);
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  });

  it("the anonymous studio with its sign-in card has no violations of any impact", async () => {
    const p = await browser.newPage();
    await p.goto(app.url + "/");
    await p.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    await p.getByRole("region", { name: "Sign in to start creating" }).getByRole("button", { name: "Sign In", exact: true }).click();
    await p.getByRole("alert").filter({ hasText: "Please enter both your email and password to sign in." }).waitFor();
    // The effect rows wrap instead of scrolling sideways, so no scroller needs keyboard focus.
    const found = await axeViolations(p);
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
    await p.close();
  });

  it("the sign-in screen has no violations of any impact", async () => {
    const p = await browser.newPage();
    await p.goto(app.url + "/auth");
    await expect.poll(() => p.getByRole("button", { name: /sign in/i }).count()).toBeGreaterThan(0);
    const found = await axeViolations(p);
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
    await p.close();
  });
});
