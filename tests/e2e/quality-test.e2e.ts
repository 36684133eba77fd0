// The Quality Test in real Chromium (spec/studio.md sections 2 and 9): 5 s of the
// studio's current state rendered by the engine in the export worker, played as the
// high-quality render or as the compressed version (Opus 12 kbit/s through WebCodecs); states
// none, hq, compressed, and starting one stops the other. Listened to through the page's output
// analyser: a 10 kHz tone is there in the render and gone from the compressed version (Opus at
// 12 kbit/s keeps about 8 kHz), a 1 kHz tone survives both. Screenshots at 1280 and 390 px.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshotPath, startBrowserApp, until, type BrowserApp } from "./browser";
import { allAxeViolations, announcements, recordAnnouncements } from "./a11y-helpers";
import { openFreeStudio, openFreeStudioOnPhone } from "./session";
import { openSection } from "./sections";

let run: BrowserApp;
let page: Page;

const panel = () => page.getByRole("region", { name: "Quality Test" });
const hq = () => panel().getByRole("button", { name: "High quality" });
const compressed = () => panel().getByRole("button", { name: "Compressed" });
const mode = () => panel().getAttribute("data-mode");

/** Level (dB) at `hz` in what the page plays (the output analyser, all sources mixed): the
 *  loudest bin within 3 bins of it, averaged over a few reads. */
function levelAt(p: Page, hz: number): Promise<number> {
  return p.evaluate(async (hz) => {
    const audio = (window as unknown as { __toneStudio: { audio: { outputAnalyser: AnalyserNode; context: AudioContext } } }).__toneStudio.audio;
    const a = audio.outputAnalyser;
    const bins = new Float32Array(a.frequencyBinCount);
    const k = Math.round((hz * a.fftSize) / audio.context.sampleRate);
    let sum = 0;
    for (let read = 0; read < 5; read++) {
      await new Promise((r) => setTimeout(r, 60));
      a.getFloatFrequencyData(bins);
      let best = -Infinity;
      for (let i = k - 3; i <= k + 3; i++) best = Math.max(best, bins[i]);
      sum += best;
    }
    return sum / 5;
  }, hz);
}

beforeAll(async () => {
  run = await startBrowserApp({}, { width: 1280, height: 900 });
  page = run.page;
  await page.goto(run.app.url + "/api/health");
  await page.evaluate(() => localStorage.setItem("tone-studio:tutorial", "skipped")); // keep screenshots on the panel
  await openFreeStudio(page, run.app.url);
  await openSection(page, "Levels & sleep");
  await recordAnnouncements(page);
});

afterAll(() => run?.close());

describe("quality test", () => {
  it("is hidden until shown, and says which codec makes the compressed version", async () => {
    expect(await panel().getByRole("button", { name: "High quality" }).count()).toBe(0);
    const toggle = panel().getByRole("button", { name: "Show Quality Test" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    expect(await panel().getByRole("button", { name: "Hide Quality Test" }).getAttribute("aria-expanded")).toBe("true");
    await panel().getByText("Opus at 12 kbit/s", { exact: false }).waitFor();
    expect(await mode()).toBe("none");
  });

  it("plays the high-quality render with the 10 kHz tone, then the compressed version without it", async () => {
    await openSection(page, "Channels");
    await page.getByLabel("Channel 1 frequency (Hz)").fill("10000");
    await openSection(page, "Levels & sleep");
    await hq().click();
    await expect.poll(mode).toBe("hq");
    expect(await hq().getAttribute("aria-pressed")).toBe("true");
    expect(await compressed().getAttribute("aria-pressed")).toBe("false");
    const rendered = await until(() => levelAt(page, 10_000), (db) => db > -50);
    expect(rendered).toBeGreaterThan(-50);
    await panel().screenshot({ path: screenshotPath("quality-hq-1280.png") });

    await compressed().click();
    await expect.poll(mode).toBe("compressed");
    expect(await hq().getAttribute("aria-pressed")).toBe("false"); // starting one stopped the other
    expect(await compressed().getAttribute("aria-pressed")).toBe("true");
    const coded = await until(() => levelAt(page, 10_000), (db) => db < rendered - 40);
    expect(coded).toBeLessThan(rendered - 40);
    expect(await announcements(page)).toEqual(expect.arrayContaining(["Playing the high-quality render", "Playing the compressed version (Opus, 12 kbit/s)"]));
    await page.screenshot({ path: screenshotPath("quality-1280.png") });

    // Pressing the one playing stops it.
    await compressed().click();
    await expect.poll(mode).toBe("none");
    expect(await until(() => levelAt(page, 10_000), (db) => db < -100)).toBeLessThan(-100);
  });

  it("renders the state as it is now: a 1 kHz tone survives the codec", async () => {
    await openSection(page, "Channels");
    await page.getByLabel("Channel 1 frequency (Hz)").fill("1000");
    await openSection(page, "Levels & sleep");
    await compressed().click();
    await expect.poll(mode).toBe("compressed");
    expect(await until(() => levelAt(page, 1000), (db) => db > -50)).toBeGreaterThan(-50);
    expect(await until(() => levelAt(page, 10_000), (db) => db < -90)).toBeLessThan(-90);
    await hq().click();
    await expect.poll(mode).toBe("hq");
    expect(await until(() => levelAt(page, 1000), (db) => db > -50)).toBeGreaterThan(-50);
  });

  it("the clip ends by itself after 5 seconds", async () => {
    await expect.poll(mode, { timeout: 8000, interval: 250 }).toBe("none");
    await expect.poll(() => announcements(page)).toContain("Quality test finished");
  });

  it("and the studio's own playback never sound together: each stops the other", async () => {
    await hq().click();
    await expect.poll(mode).toBe("hq");
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    await expect.poll(mode).toBe("none");

    await compressed().click();
    await expect.poll(mode).toBe("compressed");
    await page.getByRole("button", { name: "Play Audio" }).waitFor();
    await compressed().click();
    await expect.poll(mode).toBe("none");
  });

  it("with no channel on, it asks for one instead of playing", async () => {
    await openSection(page, "Channels");
    await page.getByRole("switch", { name: "Channel 1 on/off" }).uncheck();
    await openSection(page, "Levels & sleep");
    await hq().click();
    await panel().getByText("Switch on a channel with a frequency above 0 Hz first.").waitFor();
    expect(await mode()).toBe("none");
    await openSection(page, "Channels");
    await page.getByRole("switch", { name: "Channel 1 on/off" }).check();
    await openSection(page, "Levels & sleep");
  });

  it("has no axe violations of any impact", async () => {
    const found = await allAxeViolations(page, "section.quality");
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  });

  it("fits a 390 px phone", async () => {
    const phone = await openFreeStudioOnPhone(run.browser, run.app.url);
    await openSection(phone, "Levels & sleep");
    const region = phone.getByRole("region", { name: "Quality Test" });
    await region.getByRole("button", { name: "Show Quality Test" }).click();
    await region.getByRole("button", { name: "High quality" }).click();
    await expect.poll(() => region.getAttribute("data-mode")).toBe("hq");
    await region.screenshot({ path: screenshotPath("quality-390.png") });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await region.getByRole("button", { name: "High quality" }).click();
    await phone.close();
  });
});
