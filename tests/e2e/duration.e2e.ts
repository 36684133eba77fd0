// The duration box typed into with the keyboard in real Chromium, as a person does: click, select
// all, type, then Enter or Tab. Checks what the box shows while typing and after the commit, and
// the duration the studio store (and so playback) uses. A fresh free account (maximum 3600 s),
// then an admin with the override on (maximum 43200 s, where an hour must not read as ten), then a
// Commercial License account (12 hours too, the plan's own: api/rules/plan-access.ts).

import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBrowserApp, type BrowserApp } from "./browser";
import { openFreeStudio, openSignedIn, registerAdminWithOverride, registerProAccount, uniqueEmail } from "./session";

let run: BrowserApp;
let page: Page;
const adminEmail = uniqueEmail("admin");

const box = () => page.getByLabel("Playback duration (HH:MM:SS)");

/** The duration the studio store holds: what Play runs for. */
const storeDuration = () =>
  page.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { duration: number } } } }).__toneStudio.store.getState().duration);

interface Typed {
  /** What the box showed after each keystroke. */
  typing: string[];
  /** What it shows after the commit. */
  shown: string;
  /** The committed duration in the store, in seconds. */
  seconds: number;
}

/** Clicks the box, selects all, types `keys` one keystroke at a time, then commits with `commitKey`. */
async function typeAndCommit(keys: string, commitKey: "Enter" | "Tab"): Promise<Typed> {
  await box().click();
  await page.keyboard.press("ControlOrMeta+A");
  const typing: string[] = [];
  for (const key of keys) {
    await box().pressSequentially(key);
    typing.push(await box().inputValue());
  }
  await page.keyboard.press(commitKey);
  return { typing, shown: await box().inputValue(), seconds: await storeDuration() };
}

beforeAll(async () => {
  run = await startBrowserApp({ adminEmails: [adminEmail] });
  page = run.page;
  await openFreeStudio(page, run.app.url);
});

afterAll(() => run?.close());

describe("the duration box, typed with the keyboard", () => {
  it("starts at the 30 s default", async () => {
    expect(await box().inputValue()).toBe("00:00:30");
    expect(await storeDuration()).toBe(30);
  });

  it("1:30 then Enter is one minute thirty", async () => {
    expect(await typeAndCommit("1:30", "Enter")).toEqual({ typing: ["1", "1:", "1:3", "1:30"], shown: "00:01:30", seconds: 90 });
  });

  it("1:00:00 then Tab is one hour", async () => {
    expect(await typeAndCommit("1:00:00", "Tab")).toMatchObject({ shown: "01:00:00", seconds: 3600 });
  });

  it("2:00:00 is clamped to the free user's maximum of one hour", async () => {
    expect(await typeAndCommit("2:00:00", "Enter")).toMatchObject({ shown: "01:00:00", seconds: 3600 });
  });

  it("130 typed without colons shows 1:30 while typing and commits 90 s", async () => {
    expect(await typeAndCommit("130", "Tab")).toEqual({ typing: ["1", "13", "1:30"], shown: "00:01:30", seconds: 90 });
  });

  it("90 is read as 59 s (seconds capped at 59)", async () => {
    expect(await typeAndCommit("90", "Enter")).toMatchObject({ shown: "00:00:59", seconds: 59 });
  });

  it("10 is clamped to the 30 s minimum", async () => {
    expect(await typeAndCommit("10", "Enter")).toMatchObject({ shown: "00:00:30", seconds: 30 });
  });
});

describe("the duration box of an admin with unlimited access", () => {
  beforeAll(async () => {
    await page.evaluate(() => localStorage.clear());
    await openSignedIn(page, run.app.url, await registerAdminWithOverride(run.app, adminEmail), "/");
    await page.getByText("Admin User (12 hours max)").waitFor();
  });

  it("1:00:00 is one hour, not ten", async () => {
    expect(await typeAndCommit("1:00:00", "Enter")).toMatchObject({ shown: "01:00:00", seconds: 3600 });
  });

  it("typed without colons, 23000 is two hours thirty", async () => {
    expect(await typeAndCommit("23000", "Tab")).toEqual({
      typing: ["2", "23", "2:30", "23:00", "2:30:00"],
      shown: "02:30:00",
      seconds: 9000,
    });
  });

  it("13:00:00 is clamped to the 12-hour maximum", async () => {
    expect(await typeAndCommit("13:00:00", "Enter")).toMatchObject({ shown: "12:00:00", seconds: 43200 });
  });
});

describe("the duration box of a Commercial License account", () => {
  beforeAll(async () => {
    await page.evaluate(() => localStorage.clear());
    await openSignedIn(page, run.app.url, await registerProAccount(run.app, "Commercial License"), "/");
    await page.getByText("Pro User (12 hours max)").waitFor();
  });

  it("says 12 hours beside the box and takes 12:00:00, clamping 13:00:00 to it", async () => {
    await page.getByText("Minimum 30 seconds, maximum 12 hours (12:00:00).").waitFor();
    expect(await typeAndCommit("12:00:00", "Enter")).toMatchObject({ shown: "12:00:00", seconds: 43200 });
    expect(await typeAndCommit("13:00:00", "Enter")).toMatchObject({ shown: "12:00:00", seconds: 43200 });
  });
});
