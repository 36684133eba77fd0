// The duration box typed into with the keyboard in real Chromium, as a person does: click, select
// all, type, then Enter or Tab. Checks what the box shows while typing and after the commit, and
// the duration the studio store (and so playback) uses. A fresh free account (maximum 3600 s),
// then an admin with the override on (maximum 43200 s, where an hour must not read as ten).

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, startTestApp, type TestApp } from "./browser";
import { openSignedIn, registerAccount, registerAdminWithOverride, uniqueEmail } from "./session";

let app: TestApp;
let browser: Browser;
let page: Page;
const adminEmail = uniqueEmail("admin");

const box = () => page.getByLabel("Playback duration (HH:MM:SS)");

/** The duration the studio store holds: what Play runs for. */
const storeDuration = () =>
  page.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { duration: number } } } }).__toneStudio.store.getState().duration);

/** Selects everything in the box and types `keys` one keystroke at a time; returns what the box
 *  showed after each keystroke. */
async function typeInto(keys: string): Promise<string[]> {
  await box().click();
  await page.keyboard.press("ControlOrMeta+A");
  const shown: string[] = [];
  for (const key of keys) {
    await box().pressSequentially(key);
    shown.push(await box().inputValue());
  }
  return shown;
}

/** Types `keys`, commits with `commitKey` and answers what the box and the store then hold. */
async function commit(keys: string, commitKey: "Enter" | "Tab"): Promise<{ shown: string; seconds: number }> {
  await typeInto(keys);
  await page.keyboard.press(commitKey);
  return { shown: await box().inputValue(), seconds: await storeDuration() };
}

beforeAll(async () => {
  app = await startTestApp({ adminEmails: [adminEmail] });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await openSignedIn(page, app.url, await registerAccount(app.url), "/");
  await page.getByText("Free User (59 min max)").waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("the duration box, typed with the keyboard", () => {
  it("starts at the 30 s default", async () => {
    expect(await box().inputValue()).toBe("00:00:30");
    expect(await storeDuration()).toBe(30);
  });

  it("1:30 then Enter is one minute thirty", async () => {
    expect(await typeInto("1:30")).toEqual(["1", "1:", "1:3", "1:30"]);
    await page.keyboard.press("Enter");
    expect(await box().inputValue()).toBe("00:01:30");
    expect(await storeDuration()).toBe(90);
  });

  it("1:00:00 then Tab is one hour", async () => {
    expect(await commit("1:00:00", "Tab")).toEqual({ shown: "01:00:00", seconds: 3600 });
  });

  it("2:00:00 is clamped to the free user's maximum of one hour", async () => {
    expect(await commit("2:00:00", "Enter")).toEqual({ shown: "01:00:00", seconds: 3600 });
  });

  it("130 typed without colons shows 1:30 while typing and commits 90 s", async () => {
    expect(await typeInto("130")).toEqual(["1", "13", "1:30"]);
    await page.keyboard.press("Tab");
    expect(await box().inputValue()).toBe("00:01:30");
    expect(await storeDuration()).toBe(90);
  });

  it("90 is read as 59 s (seconds capped at 59)", async () => {
    expect(await commit("90", "Enter")).toEqual({ shown: "00:00:59", seconds: 59 });
  });

  it("10 is clamped to the 30 s minimum", async () => {
    expect(await commit("10", "Enter")).toEqual({ shown: "00:00:30", seconds: 30 });
  });
});

describe("the duration box of an admin with unlimited access", () => {
  beforeAll(async () => {
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await openSignedIn(page, app.url, await registerAdminWithOverride(app, adminEmail), "/");
    await page.getByText("Admin User (12 hours max)").waitFor();
  });

  it("1:00:00 is one hour, not ten", async () => {
    expect(await commit("1:00:00", "Enter")).toEqual({ shown: "01:00:00", seconds: 3600 });
  });

  it("typed without colons, 23000 is two hours thirty", async () => {
    expect(await typeInto("23000")).toEqual(["2", "23", "2:30", "23:00", "2:30:00"]);
    await page.keyboard.press("Tab");
    expect(await box().inputValue()).toBe("02:30:00");
    expect(await storeDuration()).toBe(9000);
  });

  it("13:00:00 is clamped to the 12-hour maximum", async () => {
    expect(await commit("13:00:00", "Enter")).toEqual({ shown: "12:00:00", seconds: 43200 });
  });
});
