// Onboarding in real Chromium (spec/accounts.md section 2): a signed-in visitor's first
// studio visit shows the 7-step tutorial; Next walks all steps (the last reads Complete) with the
// step's part of the studio highlighted; Close skips it; Restart Tutorial brings it back after a
// skip or a completion; the outcome is remembered in this browser. Anonymous visitors get no
// tutorial. The hint bar changes every 5 s, its dismiss button draws attention after 10 s (no
// animation under reduced motion), and Dismiss hides it for the visit. Screenshots at 1280 and 390 px.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { nextFrames, screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { allAxeViolations } from "./a11y-helpers";
import { openFreeStudio } from "./session";

let run: BrowserApp;

const STEPS = [
  ["Welcome to Tone Studio", null],
  ["Play and stop", "play"],
  ["Set a frequency", "frequency"],
  ["Choose a waveform", "waveform"],
  ["Layer effects", "effects"],
  ["Export and share", "export"],
  ["You're ready", null],
] as const;

const tutorial = (p: Page) => p.getByRole("region", { name: /./ }).filter({ has: p.locator("#tutorial-title") });
const heading = (p: Page) => p.locator("#tutorial-title");
const highlighted = (p: Page) => p.evaluate(() => Array.from(document.querySelectorAll("[data-tutorial-highlight]"), (e) => e.getAttribute("data-tutorial-highlight")));
const activeText = (p: Page) => p.evaluate(() => document.activeElement?.textContent?.trim() ?? "");

beforeAll(async () => {
  run = await startBrowserApp({}, { width: 1280, height: 900 });
});

afterAll(() => run?.close());

describe("onboarding tutorial", () => {
  it("runs through all 7 steps with Previous and Next; the last reads Complete; Restart brings it back", async () => {
    const page = run.page;
    await openFreeStudio(page, run.app.url);
    await tutorial(page).waitFor();
    await page.screenshot({ path: screenshotPath("tutorial-1280.png") });
    const previous = tutorial(page).getByRole("button", { name: "Previous" });
    expect(await previous.getAttribute("aria-disabled")).toBe("true");
    await previous.click({ force: true }); // aria-disabled: does nothing on the first step
    expect(await heading(page).textContent()).toBe(STEPS[0][0]);

    for (let i = 0; i < STEPS.length; i++) {
      const [title, target] = STEPS[i];
      await expect.poll(() => heading(page).textContent()).toBe(title);
      expect(await tutorial(page).getByText(`Step ${i + 1} of 7`).count()).toBe(1);
      expect(await highlighted(page)).toEqual(target ? [target] : []);
      if (i === 2) {
        // Back one and forward again.
        await previous.click();
        await expect.poll(() => heading(page).textContent()).toBe(STEPS[1][0]);
        await tutorial(page).getByRole("button", { name: "Next" }).click();
        await expect.poll(() => heading(page).textContent()).toBe(title);
      }
      if (i === 1) {
        // "Show me" puts focus on the control the step is about.
        await tutorial(page).getByRole("button", { name: "Show me" }).click();
        await expect.poll(() => activeText(page)).toBe("Play Audio");
        const play = page.getByRole("button", { name: "Play Audio" });
        await expect.poll(() => play.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= innerHeight;
        })).toBe(true);
        await page.screenshot({ path: screenshotPath("tutorial-step-play-1280.png") });
      }
      const label = i === STEPS.length - 1 ? "Complete" : "Next";
      expect(await tutorial(page).getByRole("button", { name: /^(Next|Complete)$/ }).textContent()).toBe(label);
      await tutorial(page).getByRole("button", { name: label }).click();
    }

    await expect.poll(() => tutorial(page).count()).toBe(0);
    expect(await highlighted(page)).toEqual([]);
    const restart = page.getByRole("button", { name: "Restart Tutorial" });
    await restart.waitFor();
    await expect.poll(() => activeText(page)).toBe("Restart Tutorial"); // focus was not lost
    expect(await page.evaluate(() => localStorage.getItem("tone-studio:tutorial"))).toBe("completed");

    // Remembered in this browser.
    await page.reload();
    await restart.waitFor();
    expect(await tutorial(page).count()).toBe(0);

    await restart.click();
    await tutorial(page).waitFor();
    expect(await heading(page).textContent()).toBe(STEPS[0][0]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("tutorial-title");
  });

  it("Close skips it (remembered as skipped); Escape inside it closes it too; Restart works after a skip", async () => {
    const page = run.page; // the tutorial was restarted above
    await tutorial(page).getByRole("button", { name: "Next" }).click();
    await tutorial(page).getByRole("button", { name: "Close tutorial" }).click();
    await expect.poll(() => tutorial(page).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("tone-studio:tutorial"))).toBe("skipped");
    await expect.poll(() => activeText(page)).toBe("Restart Tutorial");

    await page.getByRole("button", { name: "Restart Tutorial" }).click();
    await tutorial(page).waitFor();
    await tutorial(page).getByRole("button", { name: "Next" }).focus();
    await page.keyboard.press("Escape");
    await expect.poll(() => tutorial(page).count()).toBe(0);
    await page.getByRole("button", { name: "Restart Tutorial" }).waitFor();
  });

  it("does not cover the studio: its controls work while the tutorial is open", async () => {
    const page = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openFreeStudio(page, run.app.url);
    await tutorial(page).waitFor();
    await page.getByLabel("Channel 1 frequency (Hz)").fill("440");
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await page.getByRole("button", { name: "Play Audio" }).waitFor();
    const found = await allAxeViolations(page);
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
    await page.close();
  });

  it("is not shown to anonymous visitors, whose studio is locked", async () => {
    const page = await run.browser.newPage();
    await page.goto(run.app.url + "/");
    await page.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    expect(await page.locator("#tutorial-title").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Restart Tutorial" }).count()).toBe(0);
    expect(await page.getByRole("complementary", { name: "Hints" }).count()).toBe(0);
    await page.close();
  });

  it("fits a 390 px phone", async () => {
    const page = await run.browser.newPage({ viewport: { width: 390, height: 844 } });
    await openFreeStudio(page, run.app.url);
    await tutorial(page).waitFor();
    await tutorial(page).getByRole("button", { name: "Next" }).click();
    await tutorial(page).screenshot({ path: screenshotPath("tutorial-390.png") });
    await page.screenshot({ path: screenshotPath("tutorial-page-390.png") });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.close();
  });
});

describe("hint bar", () => {
  // The page's timers run on Playwright's clock, which the tests move forward instead of waiting.
  it("changes every 5 s, draws attention to Dismiss after 10 s, and Dismiss hides it for the visit", async () => {
    const page = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.clock.install();
    await openFreeStudio(page, run.app.url);
    // The hints stay out of the tutorial's way.
    await tutorial(page).waitFor();
    const bar = page.getByRole("complementary", { name: "Hints" });
    expect(await bar.count()).toBe(0);
    await tutorial(page).getByRole("button", { name: "Close tutorial" }).click();
    await bar.waitFor();
    const text = bar.locator(".hint-text");
    const dismiss = bar.getByRole("button", { name: "Dismiss hints" });
    const first = await text.textContent();
    expect(await dismiss.getAttribute("data-attention")).toBe("false");
    await page.mouse.move(5, 5); // not on the bar (hovering pauses it)
    await page.clock.fastForward(5_000);
    await expect.poll(() => text.textContent()).not.toBe(first);
    await page.clock.fastForward(5_000);
    await expect.poll(() => dismiss.getAttribute("data-attention")).toBe("true");
    expect(await dismiss.evaluate((el) => getComputedStyle(el).animationName)).toBe("hint-attention");
    await page.screenshot({ path: screenshotPath("hints-1280.png") });

    // Under reduced motion the attention is a solid highlight, with no animation.
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await dismiss.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");

    await dismiss.click();
    await expect.poll(() => bar.count()).toBe(0);
    await page.reload();
    await page.getByRole("button", { name: "Restart Tutorial" }).waitFor();
    expect(await bar.count()).toBe(0);
    await page.close();
  });

  it("holds still while the pointer is on it", async () => {
    const page = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.clock.install();
    await page.goto(run.app.url + "/api/health");
    await page.evaluate(() => localStorage.setItem("tone-studio:tutorial", "skipped"));
    await openFreeStudio(page, run.app.url);
    const bar = page.getByRole("complementary", { name: "Hints" });
    const text = bar.locator(".hint-text");
    await bar.hover();
    const first = await text.textContent();
    await page.clock.fastForward(6_000);
    await nextFrames(page);
    expect(await text.textContent()).toBe(first);
    // The clock did move: off the bar, the next hint comes 5 s later.
    await page.mouse.move(5, 5);
    await page.clock.fastForward(5_000);
    await expect.poll(() => text.textContent()).not.toBe(first);
    await page.close();
  });
});
