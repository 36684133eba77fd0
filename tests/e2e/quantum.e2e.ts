// Quantum and sequential modes in real Chromium (spec/studio.md sections 4-6): only an admin with
// the override sees the panel; turning it on puts the computed frequencies into the channel boxes;
// typing into a channel box returns to Manual Mode; sequential mode plays one frequency at a time
// and, while audio plays, advances after its duration (heard through the AnalyserNode); Prev wraps.

import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, startBrowserApp, screenshotPath, type BrowserApp } from "./browser";
import { openSignedIn, registerAdminWithOverride, registerProAccount, uniqueEmail } from "./session";
import { openSection } from "./sections";

let run: BrowserApp;
let page: Page;
const adminEmail = uniqueEmail("admin");

const channelBox = (i: number) => page.getByLabel(`Channel ${i} frequency (Hz)`);
const panel = () => page.getByRole("region", { name: "Quantum mode" });

/** The loudest frequency the studio's output analyser (8192-point, 5.9 Hz bins) hears, in Hz. */
function heardHz(p: Page): Promise<number> {
  return p.evaluate(async () => {
    const audio = (window as unknown as { __toneStudio: { audio: { outputAnalyser: AnalyserNode; context: AudioContext } } }).__toneStudio.audio;
    const a = audio.outputAnalyser;
    const bins = new Float32Array(a.frequencyBinCount);
    await new Promise((r) => setTimeout(r, 250)); // a whole window after the last change
    a.getFloatFrequencyData(bins);
    let k = 1;
    for (let i = 1; i < bins.length; i++) if (bins[i] > bins[k]) k = i;
    return (k * audio.context.sampleRate) / a.fftSize;
  });
}

beforeAll(async () => {
  run = await startBrowserApp({ adminEmails: [adminEmail] });
  page = run.page;
});

afterAll(() => run?.close());

describe("quantum mode", () => {
  it("is not offered to a Pro user", async () => {
    const p = await run.browser.newPage();
    await openSignedIn(p, run.app.url, await registerProAccount(run.app));
    await expect.poll(() => p.getByRole("switch", { name: "Channel 2 on/off" }).isEnabled()).toBe(true);
    expect(await p.getByRole("region", { name: "Quantum mode" }).count()).toBe(0);
    expect(await p.getByRole("tab", { name: "Quantum" }).count()).toBe(0);
    await p.close();
  });

  it("an admin with the override turns it on and the channels take the computed frequencies", async () => {
    await openSignedIn(page, run.app.url, await registerAdminWithOverride(run.app, adminEmail));
    await openSection(page, "Quantum");
    await panel().waitFor();
    const base = panel().getByLabel("Base frequency (Hz)");
    await base.fill("100");
    await panel().getByLabel("Pattern").selectOption("fibonacci");
    await panel().getByRole("switch", { name: "Quantum mode" }).check();
    await expect.poll(() => panel().getByText("Mathematical harmonics", { exact: true }).count()).toBe(1);
    for (const [i, f] of [[1, "100"], [2, "200"], [3, "300"], [4, "500"]] as const) {
      await expect.poll(() => channelBox(i).inputValue()).toBe(f);
    }
    // A base that is not a number reads as 432.
    await base.fill("");
    await expect.poll(() => channelBox(2).inputValue()).toBe("864");
  });

  it("typing into a channel box returns to Manual Mode", async () => {
    await openSection(page, "Channels");
    await channelBox(3).fill("250");
    await openSection(page, "Quantum");
    await expect.poll(() => panel().getByText("Manual Mode", { exact: true }).count()).toBe(1);
    expect(await panel().getByRole("switch", { name: "Quantum mode" }).isChecked()).toBe(false);
    expect(await channelBox(3).inputValue()).toBe("250");
  });

  it("sequential mode plays one frequency at a time and advances after its duration", async () => {
    await panel().getByLabel("Base frequency (Hz)").fill("500");
    await panel().getByLabel("Pattern").selectOption("sacred");
    await panel().getByRole("switch", { name: "Quantum mode" }).check();
    await panel().getByRole("switch", { name: "Sequential mode" }).check();
    await panel().getByLabel("Time per frequency").selectOption("1");
    for (const [i, f] of [[1, "500"], [2, "0"], [3, "0"], [4, "0"]] as const) {
      await expect.poll(() => channelBox(i).inputValue()).toBe(f);
    }
    await page.getByRole("button", { name: "Play Audio" }).click();
    await page.getByRole("button", { name: "Stop Audio" }).waitFor();
    // 500 Hz, then 562.5 (9/8) about a second later, then 625 (5/4); each heard by the analyser.
    const seen = new Set<string>();
    const deadline = Date.now() + 8000;
    while (Date.now() < deadline && !(seen.has("562.5") && seen.has("625"))) {
      seen.add(await channelBox(1).inputValue());
      await page.waitForTimeout(50); // sampling the box while the sequence runs
    }
    expect([...seen]).toEqual(expect.arrayContaining(["500", "562.5", "625"]));
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await panel().getByLabel("Time per frequency").selectOption("300");
    await page.getByRole("button", { name: "Play Audio" }).click();
    const now = Number(await channelBox(1).inputValue());
    await expect.poll(() => heardHz(page), { timeout: 5000 }).toBeCloseTo(now, -1);
    await panel().screenshot({ path: screenshotPath("quantum-sequential-1280.png") });
  });

  it("Prev from the first frequency wraps to the last; Next comes back", async () => {
    // Move to the first frequency, then Prev wraps to the fourth of four (sacred: 500 × 4/3).
    for (let i = 0; i < 4 && (await channelBox(1).inputValue()) !== "500"; i++) {
      const before = await channelBox(1).inputValue();
      await panel().getByRole("button", { name: "Next" }).click();
      await expect.poll(() => channelBox(1).inputValue()).not.toBe(before);
    }
    await expect.poll(() => channelBox(1).inputValue()).toBe("500");
    await panel().getByRole("button", { name: "Prev" }).click();
    await expect.poll(() => channelBox(1).inputValue()).toBe("666.67");
    await expect.poll(() => panel().getByText("Now playing 666.67 Hz (4 of 4)").count()).toBe(1);
    await expect.poll(() => heardHz(page), { timeout: 5000 }).toBeCloseTo(666.67, -1);
    await panel().getByRole("button", { name: "Next" }).click();
    await expect.poll(() => channelBox(1).inputValue()).toBe("500");
    await page.getByRole("button", { name: "Stop Audio" }).click();
  });

  it("the panel in sequential mode has no WCAG 2.1 A/AA violations of any impact", async () => {
    const violations = await axeViolations(page);
    expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
  });

  it("the panel fits a 390 px phone", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await panel().scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await panel().screenshot({ path: screenshotPath("quantum-390.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
