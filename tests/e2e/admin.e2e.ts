// Admin tools in real Chromium (spec/accounts.md sections 2, 4, 5, 8 and 9): the
// dashboard (stat cards, user table, the three tool views) and its redirect for non-admins and
// visitors; a temporary monthly pass granted through the Admin Access Control modal makes a free
// user Pro after a reload, and revoking it (CSRF header) makes them free again; the override
// switch in the user menu flips the studio's tier label; the developer panel's verify audio
// passes, its deploy shows the failure text when the route answers 404 and otherwise really
// builds, is polled every 5 s and goes live. axe finds no violation of any impact on the
// dashboard, with the modal open or with the panel open; screenshots at 1280 and 390 px.

import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { FREE_LABEL, openSignedIn, registerAccount, registerAdminWithOverride, uniqueEmail, type TestAccount } from "./session";

const ADMIN_LABEL = "Admin User (12 hours max)";
const PRO_LABEL = "Pro User (59 min max)";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let run: BrowserApp;
let page: Page;
let admin: TestAccount;
let free: TestAccount;
const adminEmail = uniqueEmail("admin");

const menu = (p: Page, email: string) => p.getByRole("button", { name: `Account menu for ${email}` });
const dialog = (p: Page) => p.getByRole("dialog", { name: "Admin Access Control" });
const tierLabel = (p: Page) => p.locator(".tier-label");

async function openAccessModal(p: Page): Promise<void> {
  await menu(p, adminEmail).click();
  await p.getByRole("button", { name: "Temp Access" }).click();
  await dialog(p).waitFor();
}

beforeAll(async () => {
  run = await startBrowserApp({ adminEmails: [adminEmail] }, DESKTOP);
  page = run.page;
  admin = await registerAdminWithOverride(run.app, adminEmail);
  free = await registerAccount(run.app.url, uniqueEmail("free"));
});

afterAll(() => run?.close());

describe("admin dashboard", () => {
  it("sends a visitor and a non-admin to /", async () => {
    const p = await run.browser.newPage();
    await p.goto(`${run.app.url}/admin/dashboard`);
    await expect.poll(() => new URL(p.url()).pathname).toBe("/");
    await openSignedIn(p, run.app.url, free, "/admin/dashboard");
    await expect.poll(() => new URL(p.url()).pathname).toBe("/");
    await p.getByText(FREE_LABEL).waitFor();
    expect(await p.getByRole("heading", { name: "Admin Dashboard" }).count()).toBe(0);
    await p.close();
  });

  it("shows an admin the stat cards and the user table; axe finds nothing at any impact", async () => {
    await openSignedIn(page, run.app.url, admin, "/admin/dashboard");
    await page.getByRole("heading", { name: "Admin Dashboard", level: 1 }).waitFor();
    const card = (label: string) => page.locator(".stat-card", { hasText: label }).locator(".stat-value");
    await card("Total users").waitFor();
    expect(await card("Total users").textContent()).toBe("2");
    expect(await card("Active subscriptions").textContent()).toBe("0");
    expect(await card("Monthly revenue").textContent()).toBe("$0.00");
    expect(await card("Total revenue").textContent()).toBe("$0.00");

    const row = (email: string) => page.getByRole("row").filter({ hasText: email });
    await row(free.email).waitFor();
    expect(await row(free.email).getByRole("cell").allTextContents()).toEqual([free.email, "user", "No subscription", "✗ inactive"]);
    expect(await row(adminEmail).getByRole("cell").nth(1).textContent()).toBe("admin");
    // Red for inactive, and the word and symbol say it too.
    const colour = await row(free.email).locator(".status-pill").evaluate((el) => getComputedStyle(el).color);
    expect(colour).toBe("rgb(252, 165, 165)");

    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("admin-dashboard-1280.png"), fullPage: true });
  });

  it("Email Management resends a verification; System Settings and Notifications show the server's state", async () => {
    await page.getByRole("button", { name: "Email Management" }).click();
    await page.getByText(/mails? sent in total/).waitFor();
    await page.getByLabel("Resend verification email to").fill(free.email);
    await page.getByRole("button", { name: "Resend verification" }).click();
    await page.getByRole("status").filter({ hasText: `Verification email sent to ${free.email}` }).waitFor();
    await page.getByText(/Outbox folder/).waitFor();

    await page.getByRole("button", { name: "System Settings" }).click();
    expect(await page.getByRole("button", { name: "System Settings" }).getAttribute("aria-expanded")).toBe("true");
    await page.getByText("Payments (STRIPE_SECRET_KEY)").waitFor();
    const settings = await page.locator(".settings-list").textContent();
    expect(settings).toContain("✗ Not configured");
    expect(settings).not.toMatch(/sk_|whsec_/);
    await page.screenshot({ path: screenshotPath("admin-dashboard-settings-1280.png"), fullPage: true });

    await page.getByRole("button", { name: "Notifications" }).click();
    const list = page.getByRole("list", { name: "Recent notifications" });
    await list.waitFor();
    expect(await list.getByRole("listitem").filter({ hasText: `to ${free.email}` }).count()).toBeGreaterThanOrEqual(2);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("fits a phone", async () => {
    await page.setViewportSize(PHONE);
    await page.getByRole("button", { name: "Email Management" }).click();
    await page.screenshot({ path: screenshotPath("admin-dashboard-390.png"), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize(DESKTOP);
  });
});

describe("Admin Access Control", () => {
  let user: Page;
  const channel2 = () => user.getByRole("switch", { name: "Channel 2 on/off" });

  beforeAll(async () => {
    user = await run.browser.newPage();
    await openSignedIn(user, run.app.url, free, "/");
    await user.getByText(FREE_LABEL).waitFor();
  });
  afterAll(() => user?.close());

  it("grants a monthly pass: the user reloads and is Pro", async () => {
    await page.goto(`${run.app.url}/`);
    await tierLabel(page).getByText(ADMIN_LABEL).waitFor();
    expect(await channel2().isDisabled()).toBe(true);
    await openAccessModal(page);
    const d = dialog(page);
    // The e-mail field has focus; Grant is off until it has text.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe("email");
    expect(await d.getByRole("button", { name: "Grant Access" }).isDisabled()).toBe(true);
    await d.getByRole("button", { name: "Quick Check Access" }).click();
    await d.getByRole("status").filter({ hasText: "Enter an email address first" }).waitFor();
    await d.getByLabel("Customer email").fill(free.email);
    await d.getByRole("button", { name: "Quick Check Access" }).click();
    await d.getByRole("status").filter({ hasText: `${free.email} has no access - ready to grant!` }).waitFor();
    await d.getByLabel("Plan").selectOption("monthly");
    await d.getByLabel("Reason (optional)").fill("E2E support case");
    await d.getByRole("button", { name: "Grant Access" }).click();
    const note = d.getByRole("status").filter({ hasText: "Access granted" });
    await note.waitFor();
    expect((await note.innerText()).split("\n")).toEqual(["✓ Access granted!", `User: ${free.email}`, "Duration: 30 days", "Plan: Monthly Plan"]);
    // The toast says the same (behind the modal's backdrop).
    await page.locator("[data-sonner-toast]").filter({ hasText: `User: ${free.email}` }).waitFor();
    // After a grant the e-mail and reason clear; the plan stays.
    expect(await d.getByLabel("Customer email").inputValue()).toBe("");
    expect(await d.getByLabel("Reason (optional)").inputValue()).toBe("");
    expect(await d.getByLabel("Plan").inputValue()).toBe("monthly");
    const row = d.getByRole("listitem").filter({ hasText: free.email });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Monthly Plan.*active, 29d 23h left.*E2E support case/);

    await user.reload();
    await tierLabel(user).getByText(PRO_LABEL).waitFor();
    await expect.poll(() => channel2().isEnabled()).toBe(true);
  });

  it("the modal passes axe at every impact and fits desktop and phone", async () => {
    const d = dialog(page);
    await d.getByLabel("Plan").selectOption("custom");
    await d.getByLabel("Days (1-365)").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("admin-access-modal-1280.png") });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: screenshotPath("admin-access-modal-390.png") });
    const box = await d.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize(DESKTOP);
  });

  it("Copy Support Text, Reset Access, and a custom plan needs its days", async () => {
    const d = dialog(page);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: run.app.url });
    await d.getByLabel("Customer email").fill(free.email);
    await d.getByRole("button", { name: "Grant Access" }).click();
    await d.getByRole("status").filter({ hasText: "Valid duration is required for custom plans" }).waitFor();
    await d.getByRole("button", { name: "Copy Support Text" }).click();
    await d.getByRole("status").filter({ hasText: "Support text copied!" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`Hi ${free.email},`);
    await d.getByLabel("Days (1-365)").fill("3");
    await d.getByRole("button", { name: "Reset Access" }).click();
    expect(await d.getByLabel("Customer email").inputValue()).toBe("");
    expect(await d.getByLabel("Plan").inputValue()).toBe("daily");
  });

  it("revokes with the CSRF token: the user reloads and is free again; Escape closes and focus returns", async () => {
    const d = dialog(page);
    const csrfHeaders: (string | undefined)[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/admin/revoke-temporary-access")) csrfHeaders.push(r.headers()["x-csrf-token"]);
    });
    await d.getByLabel("Customer email").fill(free.email);
    await d.getByRole("button", { name: "Revoke Access", exact: true }).click();
    await d.getByRole("status").filter({ hasText: `🚫 Access successfully revoked for ${free.email}` }).waitFor();
    expect(csrfHeaders).toHaveLength(1);
    expect(csrfHeaders[0]).toMatch(/^[\w-]{20,}$/);
    const row = d.getByRole("listitem").filter({ hasText: free.email });
    await expect.poll(() => row.first().textContent()).toContain("✗ revoked");
    expect(await row.getByRole("button", { name: /^Revoke access for/ }).count()).toBe(0);

    await user.reload();
    await tierLabel(user).getByText(FREE_LABEL).waitFor();
    expect(await channel2().isDisabled()).toBe(true);

    await page.keyboard.press("Escape");
    await expect.poll(() => d.isVisible()).toBe(false);
    // Focus comes back once the dialog has closed: polled, the close may take a frame more.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Account menu for ${adminEmail}`);
  });

  it("a row's revoke also sends the CSRF token", async () => {
    const granted = await page.evaluate(async (email) => {
      const token = localStorage.getItem("auth_token");
      const res = await fetch("/api/admin/grant-temporary-access", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ email, planType: "daily", durationHours: 24 }),
      });
      return res.status;
    }, free.email);
    expect(granted).toBe(201);
    await openAccessModal(page);
    const d = dialog(page);
    const revokeRow = d.getByRole("button", { name: `Revoke access for ${free.email}` });
    await revokeRow.waitFor();
    const request = page.waitForRequest((r) => r.url().endsWith("/api/admin/revoke-temporary-access"));
    await revokeRow.click();
    expect((await request).headers()["x-csrf-token"]).toBeTruthy();
    await d.getByRole("status").filter({ hasText: `🚫 Access successfully revoked for ${free.email}` }).waitFor();
    await expect.poll(() => revokeRow.count()).toBe(0);
    await d.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => d.isVisible()).toBe(false);
  });
});

describe("override switch", () => {
  it("switches OFF and ON from the menu, and the studio's tier label follows", async () => {
    await tierLabel(page).getByText(ADMIN_LABEL).waitFor();
    await menu(page, adminEmail).click();
    const sw = page.getByRole("switch", { name: "Admin Override" });
    expect(await sw.getAttribute("aria-checked")).toBe("true");
    expect(await sw.locator(".onoff").textContent()).toBe("ON");
    const tempAccess = page.getByRole("button", { name: "Temp Access" });
    expect(await tempAccess.count()).toBe(1);
    await page.screenshot({ path: screenshotPath("admin-user-menu-1280.png") });
    await sw.click();
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("false");
    expect(await sw.locator(".onoff").textContent()).toBe("OFF");
    // Spec 6: the temporary-access dialog is an override tool, like Upload to Store.
    await expect.poll(() => tempAccess.count()).toBe(0);
    expect(await page.getByRole("link", { name: "Admin Dashboard" }).count()).toBe(1);
    await tierLabel(page).getByText(FREE_LABEL).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("adminOverride"))).toBe("false");
    // The demo is fresh again for the admin without override (the server deleted their demo).
    await page.getByRole("button", { name: /Start 10-minute demo/ }).waitFor();

    await sw.click();
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("true");
    await tierLabel(page).getByText(ADMIN_LABEL).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("adminOverride"))).toBe("true");
    await expect.poll(() => tempAccess.count()).toBe(1);
    await page.keyboard.press("Escape");
  });
});

describe("developer panel", () => {
  const panel = () => page.getByRole("region", { name: "Developer panel" });

  it("verify audio renders 1 kHz through the engine and passes", async () => {
    await page.getByRole("button", { name: "Developer panel" }).click();
    await panel().waitFor();
    expect(await panel().locator(".dev-status").textContent()).toMatch(/Audio context.*Admin statusUnlimited.*Admin overrideON/);
    await panel().getByRole("button", { name: "Verify audio" }).click();
    const result = panel().locator(".verify-result");
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toMatch(/^✓ Pass: peak at 99\d\.\d|^✓ Pass: peak at 100\d\.\d/);
    expect(await result.getAttribute("data-ok")).toBe("true");
  });

  it("waveform toggle, email test and checklist", async () => {
    const waveform = page.locator("canvas.waveform");
    expect(await waveform.count()).toBe(1);
    await panel().getByRole("switch", { name: "Waveform display" }).uncheck();
    await expect.poll(() => waveform.count()).toBe(0);
    await panel().getByRole("switch", { name: "Waveform display" }).check();
    await expect.poll(() => waveform.count()).toBe(1);

    await panel().getByRole("button", { name: "Send test email" }).click();
    await panel().getByText(`Test message sent to ${adminEmail}`).waitFor();
    await panel().getByText(/Transport: Outbox folder/).waitFor();
  });

  it("deploy: a refused start shows the failure text; a real deploy builds, polls and goes live", async () => {
    const deployButton = panel().getByRole("button", { name: "Deploy to live" });
    // The button is renamed 'Deploying...' while busy: read the section's status line instead.
    const result = panel().getByRole("region", { name: "Deploy" }).getByRole("status");
    // The deploy route answering 404 (a server without it) ends in the spec's failure text.
    await page.route("**/api/deploy", (r) => r.fulfill({ status: 404, contentType: "application/json", body: '{"error":"Not Found"}' }));
    await deployButton.click();
    await panel().getByText("Deployment failed. Please try again.").waitFor();
    await page.unroute("**/api/deploy");

    const polls: number[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/deploy/status")) polls.push(Date.now());
    });
    await deployButton.click();
    await expect.poll(() => result.textContent()).toMatch(/^Building\.\.\./);
    await expect.poll(() => result.textContent(), { timeout: 200_000, interval: 1000 }).toMatch(/^✓ Live at http:\/\/localhost:\d+\//);
    expect(await result.getAttribute("data-ok")).toBe("true");
    // Polled every 5 s (the first read comes at once).
    const gaps = polls.slice(1).map((t, i) => t - polls[i]);
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    for (const gap of gaps) expect(gap).toBeGreaterThan(4500);
    // The page is still served from the new release.
    expect((await page.request.get(`${run.app.url}/`)).status()).toBe(200);
  }, 240_000);

  it("the panel fits desktop and phone and passes axe at every impact", async () => {
    await panel().evaluate((el) => el.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("admin-dev-panel-1280.png") });
    await page.setViewportSize(PHONE);
    await panel().evaluate((el) => el.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("admin-dev-panel-390.png") });
    const box = await panel().boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
  });
});
