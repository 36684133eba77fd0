// Accounts in real Chromium against the real server: the locked studio for anonymous visitors,
// sign-up with the Free label and channels 2-4 locked, the user menu and sign-out, the
// verification link, forgot password with the recovery link from the newest .eml in the outbox
// (through /auth/callback, #type=recovery), a signed-in change that asks for the current password,
// a new password that works while the old one fails, the /reset-password page with the e-mailed
// token, and an admin's menu (ADMIN_EMAILS).

import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOutbox } from "../../api/services/outbox";
import { launchChromium, startTestApp, type TestApp } from "./browser";
import { FREE_LABEL, openSignedIn, registerAccount, storedToken, uniqueEmail } from "./session";
import { openSection } from "./sections";

const BAD_CREDENTIALS = "Incorrect email or password. Please check your credentials and try again.";

let app: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = uniqueEmail("accounts");
const adminEmail = uniqueEmail("admin");
const firstPassword = "first-Pass-1";
const secondPassword = "second-Pass-2";
const thirdPassword = "third-Pass-3";
const recoveredPassword = "recovered-Pass-9";

/** The newest mail to `to` whose subject matches, polled until it arrives; its link on our origin. */
async function newestLink(to: string, subject: RegExp, after = 0): Promise<string> {
  const outbox = join(app.dataDir, "outbox");
  let link = "";
  await expect
    .poll(
      () => {
        const mails = readOutbox(outbox).filter((m) => m.to.includes(to) && subject.test(m.subject));
        if (mails.length <= after) return "";
        link = mails[mails.length - 1].links.find((l) => l.includes("/auth/callback") || l.includes("/reset-password")) ?? "";
        return link;
      },
      { timeout: 15_000 },
    )
    .not.toBe("");
  // PUBLIC_URL defaults to http://localhost:PORT; the page runs on 127.0.0.1 (another origin for
  // localStorage), so the link is opened on the test server's own origin.
  const url = new URL(link);
  return app.url + url.pathname + url.search + url.hash;
}

function countMails(to: string, subject: RegExp): number {
  return readOutbox(join(app.dataDir, "outbox")).filter((m) => m.to.includes(to) && subject.test(m.subject)).length;
}

const toast = (text: string) => page.locator("[data-sonner-toast]", { hasText: text });
const pathname = () => new URL(page.url()).pathname;
/** Waits for the page to reach `path` (sign-in redirects wait 1 s by spec, resets 2 s). */
const reach = (path: string) => expect.poll(pathname, { timeout: 15_000 }).toBe(path);

async function signIn(password: string): Promise<void> {
  await page.goto(app.url + "/auth");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

async function signOut(): Promise<void> {
  await page.getByRole("button", { name: `Account menu for ${email}` }).click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.getByRole("link", { name: "Sign in", exact: true }).waitFor();
  expect(await storedToken(page)).toBeNull();
}

beforeAll(async () => {
  app = await startTestApp({ adminEmails: [adminEmail] });
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("accounts in Chromium", () => {
  it("shows anonymous visitors the studio dimmed and disabled behind the sign-in card", async () => {
    await page.goto(app.url + "/");
    await page.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Play Audio" }).isDisabled()).toBe(true);
    await openSection(page, "Channels");
    expect(await page.getByLabel("Channel 1 frequency (Hz)").isDisabled()).toBe(true);
    expect(await page.getByText("Instant access. A verification e-mail follows; verifying is optional.").count()).toBe(1);
  });

  it("validates sign-up, then signs up straight into the free studio with channels 2-4 locked", async () => {
    await page.getByRole("link", { name: "Create Free Account" }).click();
    await page.getByRole("heading", { name: "Create Account" }).waitFor();
    await page.getByLabel("Full name").fill("Ada Tester");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(firstPassword);
    await page.getByLabel("Confirm password", { exact: true }).fill("different-1");
    await page.getByRole("button", { name: "Create Account" }).click();
    await toast("The passwords you entered don't match. Please check both fields and try again.").waitFor();

    await page.getByLabel("Confirm password", { exact: true }).fill(firstPassword);
    await page.getByRole("button", { name: "Show confirm password" }).click();
    expect(await page.getByLabel("Confirm password", { exact: true }).getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Create Account" }).click();
    await toast("Account created! Please check your email to complete setup.").waitFor();
    await reach("/");
    await page.getByText(FREE_LABEL).waitFor();

    // Channel 1, switched off while the visitor was anonymous, comes back at its default.
    await expect.poll(() => page.getByLabel("Channel 1 frequency (Hz)").inputValue()).toBe("432");
    await openSection(page, "Channels");
    expect(await page.getByRole("switch", { name: "Channel 1 on/off" }).isChecked()).toBe(true);
    expect(await page.locator('.channel-card[data-locked="true"] .pro-lock', { hasText: "🔒 Pro Only" }).count()).toBe(3);
    for (const i of [2, 3, 4]) {
      expect(await page.getByLabel(`Channel ${i} frequency (Hz)`).inputValue()).toBe("0");
      const sw = page.getByRole("switch", { name: `Channel ${i} on/off` });
      expect(await sw.isChecked()).toBe(false);
      expect(await sw.isDisabled()).toBe(true);
    }
    expect(await page.getByRole("switch", { name: "Channel 1 on/off" }).isDisabled()).toBe(false);
    expect(await page.getByLabel("Channel 1 waveform").isDisabled()).toBe(true);
    await openSection(page, "Effects");
    expect(await page.getByRole("switch", { name: "Ring Mod", exact: true }).isDisabled()).toBe(true);
    await openSection(page, "Channels"); // the studio remembers its tab: the next tests start from Channels
    expect(await page.getByRole("button", { name: "Play Audio" }).isDisabled()).toBe(false);

    const stored = await page.evaluate(() =>
      ["auth_token", "token", "authToken", "jwt_token", "user_data"].map((k) => localStorage.getItem(k)),
    );
    expect(new Set(stored.slice(0, 4)).size).toBe(1);
    expect(stored[0]).toBeTruthy();
    expect(JSON.parse(stored[4]!).email).toBe(email);
  });

  it("opens pricing from a Pro Only lock; the user menu shows the avatar initial and closes on Escape and outside clicks", async () => {
    await page.locator(".channel-card .pro-lock").first().click();
    await reach("/subscribe");
    await page.getByRole("heading", { name: "Plans and Pricing" }).waitFor();
    await page.goto(app.url + "/");

    const avatar = page.getByRole("button", { name: `Account menu for ${email}` });
    expect((await avatar.textContent())?.trim()).toBe("A");
    await avatar.click();
    const getPro = page.getByRole("button", { name: "Get Pro Access" });
    await getPro.waitFor();
    expect(await page.getByText("Free plan").isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => getPro.isVisible()).toBe(false);
    await avatar.click();
    await getPro.waitFor();
    await page.getByRole("heading", { name: "Frequencies" }).click();
    await expect.poll(() => getPro.isVisible()).toBe(false);
  });

  it("redirects a signed-in visitor from /auth to / with the welcome toast", async () => {
    await page.goto(app.url + "/auth");
    await toast("Welcome to Tone Studio").waitFor();
    await reach("/");
  });

  it("signs out while playing: tokens cleared, sound stopped, sign-in card shown again", async () => {
    await page.getByText(FREE_LABEL).waitFor();
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    await signOut();
    await page.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    const playing = () =>
      page.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { isPlaying: boolean } } } }).__toneStudio.store.getState().isPlaying);
    await expect.poll(playing).toBe(false);
    expect(await page.getByRole("button", { name: "Play Audio" }).isDisabled()).toBe(true);
  });

  it("follows the verification link through /auth/callback into /app", async () => {
    const link = await newestLink(email, /Confirm your email/);
    expect(link).toContain("/auth/callback?code=");
    await page.goto(link);
    await reach("/app");
    await page.getByText(FREE_LABEL).waitFor();
    await signOut();
  });

  it("resets a forgotten password through the e-mailed recovery link, changes it signed in with the current one; the old password then fails", async () => {
    await page.goto(app.url + "/auth");
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await toast("Please enter the email address associated with your account to receive a password reset link.").waitFor();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await page.getByRole("heading", { name: "Check Your Email" }).waitFor();

    const link = await newestLink(email, /Reset your/);
    expect(link).toMatch(/\/auth\/callback\?code=.+#type=recovery$/);
    await page.goto(link);
    await page.getByRole("heading", { name: "Choose a New Password" }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).search).toBe("?view=update_password");

    await page.getByLabel("New password", { exact: true }).fill("password123");
    await page.getByLabel("Confirm new password", { exact: true }).fill("password123");
    await page.getByRole("button", { name: "Update Password" }).click();
    await toast("That password is too common and easy to guess. Please choose something more unique and secure.").waitFor();

    // The recovery link stands in for the current password, which the form does not ask for.
    expect(await page.getByLabel("Current password", { exact: true }).count()).toBe(0);
    await page.getByLabel("New password", { exact: true }).fill(recoveredPassword);
    await page.getByLabel("Confirm new password", { exact: true }).fill(recoveredPassword);
    await page.getByRole("button", { name: "Update Password" }).click();
    await toast("Your password has been updated").waitFor();
    await page.getByRole("heading", { name: "Sign In" }).waitFor();
    expect(await page.getByLabel("Email", { exact: true }).inputValue()).toBe(email);
    expect(await storedToken(page)).toBeNull();

    await page.getByLabel("Password", { exact: true }).fill(recoveredPassword);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await reach("/");
    await page.getByText(FREE_LABEL).waitFor();

    // Signed in, a change asks for the current password.
    await page.goto(app.url + "/auth?view=update_password");
    await page.getByRole("heading", { name: "Choose a New Password" }).waitFor();
    const current = page.getByLabel("Current password", { exact: true });
    expect(await current.getAttribute("autocomplete")).toBe("current-password");
    await page.getByLabel("New password", { exact: true }).fill(secondPassword);
    await page.getByLabel("Confirm new password", { exact: true }).fill(secondPassword);
    await page.getByRole("button", { name: "Update Password" }).click();
    await toast("Please enter your current password to change it.").waitFor();
    await current.fill(firstPassword);
    await page.getByRole("button", { name: "Update Password" }).click();
    await toast("Your current password is incorrect. Please check it and try again.").waitFor();
    await current.fill(recoveredPassword);
    await page.getByRole("button", { name: "Update Password" }).click();
    await toast("Your password has been updated").waitFor();
    await page.getByRole("heading", { name: "Sign In" }).waitFor();

    await page.getByLabel("Password", { exact: true }).fill(secondPassword);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await reach("/");
    await page.getByText(FREE_LABEL).waitFor();
    await signOut();

    await signIn(firstPassword);
    await toast(BAD_CREDENTIALS).waitFor();
    expect(pathname()).toBe("/auth");
  });

  it("resets the password on /reset-password with the e-mailed token", async () => {
    await page.goto(app.url + "/reset-password");
    await toast("Invalid or missing reset token").waitFor();
    await reach("/auth");

    const before = countMails(email, /Reset your/);
    const res = await fetch(`${app.url}/api/auth/forgot-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    const code = new URL(await newestLink(email, /Reset your/, before)).searchParams.get("code");
    expect(code).toBeTruthy();

    await page.goto(`${app.url}/reset-password?token=${encodeURIComponent(code!)}`);
    const submit = page.getByRole("button", { name: "Reset Password" });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel("New password", { exact: true }).fill(thirdPassword);
    await page.getByLabel("Confirm new password", { exact: true }).fill(thirdPassword + "x");
    await submit.click();
    await toast("Passwords do not match").waitFor();
    await page.getByRole("button", { name: "Show new password" }).click();
    expect(await page.getByLabel("New password", { exact: true }).getAttribute("type")).toBe("text");
    await page.getByLabel("Confirm new password", { exact: true }).fill(thirdPassword);
    await submit.click();
    await toast("Password reset successfully! You can now sign in with your new password.").waitFor();
    await reach("/auth");

    await signIn(thirdPassword);
    await reach("/");
    await page.getByText(FREE_LABEL).waitFor();
    await signOut();
    await signIn(secondPassword);
    await toast(BAD_CREDENTIALS).waitFor();
  });

  it("shows admins 'ADMIN ACCESS / Unlimited'; without override the role unlocks no studio features", async () => {
    const admin = await registerAccount(app.url, adminEmail);
    await openSignedIn(page, app.url, admin, "/");
    await page.getByText(FREE_LABEL).waitFor();
    expect(await page.locator('.channel-card[data-locked="true"]').count()).toBe(3);
    await page.getByRole("button", { name: `Account menu for ${adminEmail}` }).click();
    const card = page.getByLabel("Subscription status");
    await expect.poll(() => card.textContent()).toBe("ADMIN ACCESSUnlimited");
    await page.goto(app.url + "/subscribe");
    await page.getByRole("heading", { name: "You're Already Pro!" }).waitFor();
  });
});
