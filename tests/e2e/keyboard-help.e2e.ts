// Keyboard and help in real Chromium (spec/studio.md section 2): every shortcut does
// what it says (Space plays and stops, Ctrl+P opens pricing, Ctrl+F focuses channel 1's
// frequency, Shift+? opens help, Escape closes it, the arrows step a focused frequency) and none
// fires while typing in a real input; the help dialog's tabs work by keyboard alone, focus comes
// back to the opener; the live region announces playback and clears after 1 s; axe finds no
// violation of any impact with the dialog open. Screenshots of the dialog at 1280 and 390 px.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { nextFrames, screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { allAxeViolations, announcements, recordAnnouncements } from "./a11y-helpers";
import { openFreeStudio } from "./session";
import { openSection } from "./sections";

let run: BrowserApp;
let page: Page;

const playButton = () => page.getByRole("button", { name: "Play Audio" });
const stopButton = () => page.getByRole("button", { name: "Stop Audio" });
const frequency = () => page.getByLabel("Channel 1 frequency (Hz)");
const dialog = () => page.getByRole("dialog", { name: "Accessibility help" });
const activeId = () => page.evaluate(() => document.activeElement?.id ?? "");
const activeText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");

/** Moves focus to nothing in particular (the page body), as after clicking plain text. */
async function focusPage(): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.getByRole("heading", { name: "Frequencies" }).click();
}

beforeAll(async () => {
  run = await startBrowserApp({}, { width: 1280, height: 900 });
  page = run.page;
  await openFreeStudio(page, run.app.url);
  await recordAnnouncements(page);
});

afterAll(() => run?.close());

describe("keyboard shortcuts", () => {
  it("Space plays and stops, announced in the live region, which is cleared after 1 s", async () => {
    await focusPage();
    await page.keyboard.press("Space");
    await stopButton().waitFor();
    await expect.poll(() => announcements(page)).toContain("Playback started");
    // Cleared by a 1 s timer: polled, with room for a busy machine.
    await expect.poll(() => page.locator("#live-announcer").textContent(), { timeout: 2_000, interval: 50 }).toBe("");
    await page.keyboard.press("Space");
    await playButton().waitFor();
    await expect.poll(() => announcements(page)).toContain("Playback stopped");
  });

  it("Space on a focused button activates that button only", async () => {
    await page.getByRole("button", { name: "Show spectrogram" }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Hide spectrogram" }).waitFor();
    expect(await playButton().count()).toBe(1); // did not also start playback
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Show spectrogram" }).waitFor();
  });

  it("Ctrl+F focuses channel 1's frequency input", async () => {
    await focusPage();
    await page.keyboard.press("Control+f");
    await expect.poll(activeId).toBe("channel-1-frequency");
  });

  it("Up and Down step the focused frequency by 1 Hz, Shift by 10 Hz; the slider's Shift+arrows by 10 Hz", async () => {
    await frequency().fill("432");
    await frequency().focus();
    for (const [key, expected] of [["ArrowUp", "433"], ["Shift+ArrowUp", "443"], ["ArrowDown", "442"], ["Shift+ArrowDown", "432"]] as const) {
      await page.keyboard.press(key);
      await expect.poll(() => frequency().inputValue()).toBe(expected);
    }
    expect(await frequency().getAttribute("aria-valuenow")).toBe("432");
    const slider = page.getByLabel("Channel 1 frequency slider (Hz)");
    await slider.focus();
    await page.keyboard.press("Shift+ArrowRight");
    await expect.poll(() => frequency().inputValue()).toBe("442");
    await page.keyboard.press("ArrowLeft"); // the slider's own 1 Hz step
    await expect.poll(() => frequency().inputValue()).toBe("441");
  });

  it("no shortcut fires while typing in an input; Escape still works there", async () => {
    const duration = page.getByLabel("Playback duration (HH:MM:SS)");
    // Count play toggles: Space's shortcut would call the audio client's toggle in its keydown handler.
    await page.evaluate(() => {
      const w = window as unknown as { __toneStudio: { audio: { toggle(): Promise<void> } }; __toggleCalls: number };
      const audio = w.__toneStudio.audio;
      const toggle = audio.toggle.bind(audio);
      w.__toggleCalls = 0;
      audio.toggle = () => {
        w.__toggleCalls++;
        return toggle();
      };
    });
    for (const input of [frequency(), duration]) {
      await input.click();
      await page.keyboard.type(" ");
      await page.keyboard.press("Shift+?");
      await page.keyboard.press("Control+p");
      await nextFrames(page); // shortcuts act in their keydown handlers: two frames later they would show
      expect(await page.evaluate(() => (window as unknown as { __toggleCalls: number }).__toggleCalls)).toBe(0);
      expect(await playButton().count()).toBe(1);
      expect(await dialog().count()).toBe(0);
      expect(await page.getByRole("heading", { name: "Plans and Pricing" }).count()).toBe(0);
    }
    // Ctrl+F from the duration box leaves focus where the typing is.
    await duration.focus();
    const before = await activeId();
    await page.keyboard.press("Control+f");
    await nextFrames(page);
    expect(await activeId()).toBe(before);
    // Typed text went into the boxes: the frequency box keeps only digits and dots.
    await frequency().fill("");
    await frequency().pressSequentially("5 2?8");
    expect(await frequency().inputValue()).toBe("528");
  });

  it("Ctrl+P opens the pricing screen and Escape closes it", async () => {
    await focusPage();
    await page.keyboard.press("Control+p");
    await page.getByRole("heading", { name: "Plans and Pricing" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { name: "Frequencies" }).waitFor();
  });
});

describe("accessibility help dialog", () => {
  it("Shift+? opens it on the Keyboard tab; the tabs work by keyboard alone; Escape closes it", async () => {
    await focusPage();
    await page.keyboard.press("Shift+?");
    await dialog().waitFor();
    expect(await page.evaluate(() => document.querySelector("dialog")?.matches(":modal"))).toBe(true);
    const tab = (name: string) => dialog().getByRole("tab", { name });
    expect(await tab("Keyboard").getAttribute("aria-selected")).toBe("true");
    expect(await activeText()).toBe("Keyboard");
    await dialog().getByRole("tabpanel", { name: "Keyboard" }).getByRole("cell", { name: "Show this help" }).waitFor();
    await page.screenshot({ path: screenshotPath("help-keyboard-1280.png") });

    const expectSelected = async (name: string, text: string) => {
      await expect.poll(activeText).toBe(name);
      expect(await tab(name).getAttribute("aria-selected")).toBe("true");
      expect(await tab(name).getAttribute("tabindex")).toBe("0");
      await dialog().getByRole("tabpanel", { name }).getByText(text, { exact: false }).first().waitFor();
      expect(await dialog().getByRole("tabpanel").count()).toBe(1); // the others are hidden
    };
    await page.keyboard.press("ArrowRight");
    await expectSelected("Screen Reader", "Playback started");
    await page.screenshot({ path: screenshotPath("help-screen-reader-1280.png") });
    await page.keyboard.press("ArrowRight");
    await expectSelected("Visual", "redraw once a second");
    await page.screenshot({ path: screenshotPath("help-visual-1280.png") });
    await page.keyboard.press("ArrowRight"); // wraps
    await expectSelected("Keyboard", "Show this help");
    await page.keyboard.press("ArrowLeft"); // wraps back
    await expectSelected("Visual", "Reduced motion");
    await page.keyboard.press("Home");
    await expectSelected("Keyboard", "Show this help");
    await page.keyboard.press("End");
    await expectSelected("Visual", "Zoom");

    // One tab stop for the list: Tab goes to the panel; Shift+Tab back to the selected tab.
    await page.keyboard.press("Tab");
    expect(await activeId()).toBe("help-panel-visual");
    await page.keyboard.press("Shift+Tab");
    expect(await activeText()).toBe("Visual");
    // Space on a tab does not start playback behind the dialog.
    await page.keyboard.press("Space");
    expect(await playButton().count()).toBe(1);

    await page.keyboard.press("Escape");
    await expect.poll(() => dialog().count()).toBe(0);
    expect(await page.evaluate(() => document.querySelector("dialog")?.open)).toBe(false);
  });

  it("the header button opens it, always on the Keyboard tab, and focus returns to the button on close", async () => {
    const button = page.getByRole("banner").getByRole("button", { name: "Accessibility help" });
    await button.focus();
    await page.keyboard.press("Enter");
    await dialog().waitFor();
    expect(await dialog().getByRole("tab", { name: "Keyboard" }).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog().count()).toBe(0);
    await expect.poll(activeText).toBe("Accessibility help");

    await button.click();
    await dialog().getByRole("button", { name: "Close help" }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    await expect.poll(activeText).toBe("Accessibility help");
  });

  it("has no axe violations of any impact while open, and none in the studio behind it", async () => {
    await page.getByRole("banner").getByRole("button", { name: "Accessibility help" }).click();
    await dialog().waitFor();
    for (const name of ["Keyboard", "Screen Reader", "Visual"]) {
      await dialog().getByRole("tab", { name }).click();
      const found = await allAxeViolations(page, "dialog");
      expect(found, `${name}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
    }
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog().count()).toBe(0);
    const studio = await allAxeViolations(page);
    expect(studio, JSON.stringify(studio, null, 2)).toEqual([]);
  });

  it("fits a 390 px phone: opened from the studio's help button, no sideways scrolling", async () => {
    const phone = await run.browser.newPage({ viewport: { width: 390, height: 844 } });
    await openFreeStudio(phone, run.app.url);
    // The header's button is hidden on small screens; the studio's bar carries one.
    expect(await phone.getByRole("banner").getByRole("button", { name: "Accessibility help" }).isVisible()).toBe(false);
    await phone.getByRole("main").getByRole("button", { name: "Accessibility help" }).click();
    const d = phone.getByRole("dialog", { name: "Accessibility help" });
    await d.waitFor();
    const box = (await d.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await d.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await phone.screenshot({ path: screenshotPath("help-keyboard-390.png") });
    await d.getByRole("tab", { name: "Screen Reader" }).click();
    await phone.screenshot({ path: screenshotPath("help-screen-reader-390.png") });
    await d.getByRole("tab", { name: "Visual" }).click();
    await phone.screenshot({ path: screenshotPath("help-visual-390.png") });
    const found = await allAxeViolations(phone, "dialog");
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
    await phone.close();
  });
});

describe("reduced motion", () => {
  /** How many times the waveform canvas changed during `ms` of playback, read every frame. */
  async function waveformChanges(reducedMotion: "reduce" | "no-preference", ms = 3000): Promise<number> {
    const p = await run.browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion });
    try {
      await openFreeStudio(p, run.app.url);
      await p.getByRole("button", { name: "Play Audio" }).click();
      await p.getByRole("button", { name: "Stop Audio" }).waitFor();
      // The displays only draw while on screen.
      await p.locator("canvas.waveform").scrollIntoViewIfNeeded();
      await nextFrames(p, 3); // the visibility observer's callback has run
      return await p.evaluate(async (ms) => {
        const canvas = document.querySelector<HTMLCanvasElement>("canvas.waveform")!;
        const ctx = canvas.getContext("2d")!;
        let last = 0;
        let changes = 0;
        const end = performance.now() + ms;
        while (performance.now() < end) {
          await new Promise((r) => requestAnimationFrame(r));
          const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          let hash = 0;
          for (let i = 0; i < px.length; i += 61) hash = (hash * 31 + px[i]) | 0;
          if (hash !== last) changes++;
          last = hash;
        }
        return changes;
      }, ms);
    } finally {
      await p.close();
    }
  }

  it("the waveform display animates normally, and redraws about once a second when reduced motion is asked for", async () => {
    // Two pages side by side, each counting over its own 3 s.
    const [normal, reduced] = await Promise.all([waveformChanges("no-preference"), waveformChanges("reduce")]);
    expect(normal).toBeGreaterThan(10);
    expect(reduced).toBeLessThanOrEqual(4);
  });
});

describe("zoom", () => {
  it("nothing scrolls sideways at 320 px wide (400 % zoom of 1280 px), signed in or not, help open or not", async () => {
    const narrow = { width: 320, height: 720 };
    const signedIn = await run.browser.newPage({ viewport: narrow });
    await openFreeStudio(signedIn, run.app.url);
    for (const name of ["Channels", "Effects", "Session"] as const) {
      await openSection(signedIn, name);
      expect(await signedIn.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(320);
    }
    await openSection(signedIn, "Levels & sleep");
    await signedIn.getByRole("button", { name: "Show Quality Test" }).click();
    expect(await signedIn.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await signedIn.getByRole("main").getByRole("button", { name: "Accessibility help" }).click();
    const d = signedIn.getByRole("dialog", { name: "Accessibility help" });
    await d.waitFor();
    expect(await d.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= 320)).toBe(true);
    await signedIn.close();

    const anonymous = await run.browser.newPage({ viewport: narrow });
    await anonymous.goto(run.app.url + "/");
    await anonymous.getByRole("heading", { name: "Sign in to start creating" }).waitFor();
    expect(await anonymous.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await anonymous.close();
  });
});
