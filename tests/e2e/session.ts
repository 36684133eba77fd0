// Session helpers for e2e tests: create an account through the real API (from Node, not the
// page) and hand its session to a page through localStorage, the way the web app stores it
// (auth_token plus token, authToken, jwt_token and user_data), so a test starts signed in.

import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Browser, Page } from "playwright-core";
import type { Database } from "../../api/db/schema";
import type { AudioState } from "../../dsp/host/schema/state";

export interface TestAccount {
  email: string;
  password: string;
  token: string;
  user: { email: string; [key: string]: unknown };
}

/** A fresh, unique e-mail address for one test run. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now()}-${randomBytes(3).toString("hex")}@example.test`;
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${data.error ?? "no error text"}`);
  return data;
}

/** Registers a new account (POST /api/auth/register) and returns its session. */
export async function registerAccount(appUrl: string, email = uniqueEmail(), password = "tone-Studio-42"): Promise<TestAccount> {
  const answer = await post<{ token: string; user: TestAccount["user"] }>(`${appUrl}/api/auth/register`, {
    email,
    password,
    confirmPassword: password,
    fullName: "E2E Tester",
  });
  return { email, password, token: answer.token, user: answer.user };
}

/** Stores `account`'s session in the page's localStorage (same origin as appUrl), then opens `path`. */
export async function openSignedIn(page: Page, appUrl: string, account: TestAccount, path = "/"): Promise<void> {
  // localStorage belongs to the origin: load a cheap same-origin URL first (the health check).
  await page.goto(`${appUrl}/api/health`);
  await page.evaluate(({ token, user }) => {
    for (const key of ["auth_token", "token", "authToken", "jwt_token"]) localStorage.setItem(key, token);
    localStorage.setItem("user_data", JSON.stringify(user));
  }, account);
  await page.goto(appUrl + path);
}

/** The tier label of a free account's studio. */
export const FREE_LABEL = "Free User (59 min max)";

/** Registers a fresh free account, signs it in on `page` and waits for its studio at /. */
export async function openFreeStudio(page: Page, appUrl: string): Promise<TestAccount> {
  const account = await registerAccount(appUrl);
  await openSignedIn(page, appUrl, account, "/");
  await page.getByText(FREE_LABEL).waitFor();
  return account;
}

/** A new 390x844 phone page with a fresh free account's studio open, the tutorial already done. */
export async function openFreeStudioOnPhone(browser: Browser, appUrl: string): Promise<Page> {
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto(appUrl + "/api/health");
  await phone.evaluate(() => localStorage.setItem("tone-studio:tutorial", "completed"));
  await openFreeStudio(phone, appUrl);
  return phone;
}

/** The token the page has stored, or null when signed out. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem("auth_token"));
}

/** Runs `fn` on the test server's database, for rows no route writes yet. */
async function withDatabase<T>(app: { dataDir: string }, fn: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const { join } = await import("node:path");
  const { openSqlite } = await import("../../api/db/open");
  const db = await openSqlite(join(app.dataDir, "studio.db"));
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

/** A registered account with an active paid subscription, inserted straight into the test
 *  server's database: a shortcut for tests that need Pro (tests/e2e/payments.e2e.ts buys it
 *  through the real checkout against the fake Stripe server). */
export async function registerProAccount(app: { url: string; dataDir: string }, planName = "Monthly Plan"): Promise<TestAccount> {
  const account = await registerAccount(app.url);
  await withDatabase(app, async (db) => {
    const user = await db.selectFrom("users").select("id").where("email", "=", account.email).executeTakeFirstOrThrow();
    const now = new Date();
    await db
      .insertInto("subscriptions")
      .values({
        id: `sub-${user.id}`,
        user_id: user.id,
        plan_name: planName,
        status: "active",
        current_period_end: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute();
  });
  return account;
}

/** An admin (`email` must be in the server's adminEmails) with the override switched on, which
 *  gives unlimited access and the 12-hour duration (set in the database, the way the user menu's
 *  switch would; an admin without the override is registerAccount with such an e-mail). */
export async function registerAdminWithOverride(app: { url: string; dataDir: string }, email: string): Promise<TestAccount> {
  const account = await registerAccount(app.url, email);
  await withDatabase(app, (db) => db.updateTable("users").set({ admin_override: 1 }).where("email", "=", email).execute());
  return account;
}

/** Loads a state into the studio store through the page's test hook; the duration is set
 *  directly (the duration input's minimum is 30 s). */
export async function loadState(p: Page, state: AudioState, duration: number): Promise<void> {
  await p.evaluate(
    ({ state, duration }) => {
      const { store } = (window as unknown as { __toneStudio: { store: { getState(): { load(s: unknown): void }; setState(s: object): void } } }).__toneStudio;
      store.getState().load(state);
      store.setState({ duration });
    },
    { state, duration },
  );
}
