// The studio as an anonymous visitor sees it, in real Chromium against the real server: every
// channel and effect card shows 'Pro Only' (channel 1 included) under the sign-in card, whose own
// form shows the studio login's texts (spec/accounts.md section 8: empty fields, 404, 401, 5xx,
// network) and signs in on the spot; the user menu's Sign Out shows the studio's texts
// (spec/studio.md section 8). Screenshots at desktop and phone sizes go to .tmp/screenshots/.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EFFECTS } from "../../dsp/host/model/catalogue";
import { startBrowserApp, type BrowserApp } from "./browser";
import { FREE_LABEL, registerAccount, storedToken, uniqueEmail, type TestAccount } from "./session";
import { openSection } from "./sections";

const SCREENSHOTS = join(process.cwd(), ".tmp", "screenshots");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const PRO_ONLY = "🔒 Pro Only";

let run: BrowserApp;
let page: Page;
let account: TestAccount;

const card = () => page.getByRole("region", { name: "Sign in to start creating" });
const cardError = () => card().getByRole("alert");
const toast = (text: string) => page.locator("[data-sonner-toast]", { hasText: text });

/** Fills the card's form and presses its Sign In button. */
async function signInFromCard(email: string, password: string): Promise<void> {
  await card().getByLabel("Email", { exact: true }).fill(email);
  await card().getByLabel("Password", { exact: true }).fill(password);
  await card().getByRole("button", { name: "Sign In", exact: true }).click();
}

/** The card's error text once it says something. */
async function cardErrorText(): Promise<string> {
  await expect.poll(async () => (await cardError().textContent()) ?? "").not.toBe("");
  return (await cardError().textContent()) ?? "";
}

async function screenshot(name: string, viewport: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(viewport);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-full.png`), fullPage: true });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The 'Pro Only' lock that covers the whole card of `feature` ("Channel 1", "Ring Mod"): its
 *  name reads "🔒 Pro Only: Channel 1. View Pro plans" (the waveform's own lock names the
 *  waveform choice instead). */
const lockOf = (feature: string) =>
  page.getByRole("button", { name: new RegExp(`^${escape(PRO_ONLY)}\\s*: ${escape(feature)}\\. View Pro plans$`) });

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  run = await startBrowserApp({}, DESKTOP);
  page = run.page;
  account = await registerAccount(run.app.url);
});

afterAll(() => run?.close());

describe("the studio for anonymous visitors", () => {
  it("shows 'Pro Only' on all 4 channel cards and all 30 effect cards", async () => {
    await page.goto(run.app.url + "/");
    await page.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    expect(EFFECTS.length).toBe(30);
    expect(await page.locator(".channel-card").count()).toBe(4);
    expect(await page.locator(".effect-card").count()).toBe(EFFECTS.length);
    for (const feature of [1, 2, 3, 4].map((i) => `Channel ${i}`)) expect(await lockOf(feature).count(), feature).toBe(1);
    // The section tabs stay usable in the locked studio: a visitor can look at the effects too.
    await openSection(page, "Effects");
    for (const feature of EFFECTS.map((fx) => fx.name)) expect(await lockOf(feature).count(), feature).toBe(1);
    await openSection(page, "Channels");
    for (const i of [1, 2, 3, 4]) {
      expect(await page.getByRole("switch", { name: `Channel ${i} on/off` }).isChecked()).toBe(false);
      expect(await page.getByLabel(`Channel ${i} frequency (Hz)`).isDisabled()).toBe(true);
    }
  });

  it("looks right at desktop and phone sizes (screenshots in .tmp/screenshots/)", async () => {
    await screenshot("studio-anonymous-desktop", DESKTOP);
    await screenshot("studio-anonymous-phone", PHONE);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width); // nothing pushes the phone page sideways
    await page.setViewportSize(DESKTOP);
  });
});

describe("the sign-in card", () => {
  it("asks for both fields", async () => {
    await card().getByRole("button", { name: "Sign In", exact: true }).click();
    expect(await cardErrorText()).toBe("Please enter both your email and password to sign in.");
    await card().getByLabel("Email", { exact: true }).fill(account.email);
    await card().getByRole("button", { name: "Sign In", exact: true }).click();
    await expect.poll(() => cardError().textContent()).toBe("Please enter both your email and password to sign in.");
  });

  it("an unknown e-mail gets the 404 text", async () => {
    await signInFromCard(uniqueEmail("nobody"), "whatever-1");
    expect(await cardErrorText()).toBe("User not found - please check your email address");
  });

  it("a wrong password gets the 401 text", async () => {
    await signInFromCard(account.email, "not-the-password");
    await expect.poll(() => cardError().textContent()).toBe("Invalid credentials - please check your email and password");
    expect(await storedToken(page)).toBeNull();
    await screenshot("studio-signin-error-desktop", DESKTOP);
    await screenshot("studio-signin-error-phone", PHONE);
    await page.setViewportSize(DESKTOP);
  });

  it("a server failure (5xx) and no answer at all get their own texts", async () => {
    await page.route("**/api/auth/login", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "down" }) }),
    );
    await signInFromCard(account.email, account.password);
    await expect.poll(() => cardError().textContent()).toBe("Server error - please try again later");
    await page.unroute("**/api/auth/login");

    await page.route("**/api/auth/login", (route) => route.abort("internetdisconnected"));
    await signInFromCard(account.email, account.password);
    await expect.poll(() => cardError().textContent()).toBe("Network error - please check your connection and try again");
    await page.unroute("**/api/auth/login");
  });

  it("links to the forgot-password screen with the e-mail typed so far", async () => {
    expect(await card().getByRole("link", { name: "Forgot your password?" }).getAttribute("href")).toBe(
      `/auth?view=forgot_password&email=${encodeURIComponent(account.email)}`,
    );
  });

  it("signs in on the spot: the card goes, the studio unlocks with channel 1 at its default", async () => {
    await signInFromCard(`  ${account.email} `, account.password);
    await card().waitFor({ state: "detached" });
    await page.getByText(FREE_LABEL).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await storedToken(page)).toBe(await page.evaluate(() => localStorage.getItem("token")));
    expect(await storedToken(page)).toBeTruthy();
    await expect.poll(() => page.getByLabel("Channel 1 frequency (Hz)").inputValue()).toBe("432");
    expect(await page.getByRole("button", { name: "Play Audio" }).isDisabled()).toBe(false);
    expect(await lockOf("Channel 1").count()).toBe(0);
    expect(await lockOf("Channel 2").count()).toBe(1);
  });
});

describe("Sign Out in the user menu", () => {
  const signOut = async () => {
    await page.getByRole("button", { name: `Account menu for ${account.email}` }).click();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await card().waitFor();
  };

  it("thanks the user once the server has ended the session", async () => {
    await signOut();
    await toast("You have been logged out.").waitFor();
    expect(await storedToken(page)).toBeNull();
  });

  it("says so when the sign-out call fails, and still forgets the session here", async () => {
    await signInFromCard(account.email, account.password);
    await page.getByText(FREE_LABEL).waitFor();
    await page.route("**/api/auth/logout", (route) => route.abort("internetdisconnected"));
    await signOut();
    await toast("Error signing out - please refresh the page").waitFor();
    expect(await storedToken(page)).toBeNull();
    await page.unroute("**/api/auth/logout");
  });
});
