// Effects while playing in real Chromium: switching effects on and off and moving their
// values changes what the page's AnalyserNode hears.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium, startTestApp, until, type TestApp } from "./browser";
import { settledSpectrum } from "./analyser";
import { openSignedIn, registerProAccount } from "./session";
import { openSection } from "./sections";

let app: TestApp;
let browser: Browser;
let page: Page;

interface Spectrum { peakHz: number; highDb: number }

/** Dominant frequency, and the mean level (dB) of the 8-16 kHz band, from the spectrum analyser. */
async function spectrum(p: Page): Promise<Spectrum> {
  const { bins, binHz } = await settledSpectrum(p);
  let k = 1;
  for (let i = 1; i < bins.length; i++) if (bins[i] > bins[k]) k = i;
  let sum = 0;
  let n = 0;
  for (let i = Math.round(8000 / binHz); i < Math.round(16000 / binHz); i++) { sum += bins[i]; n++; }
  return { peakHz: k * binHz, highDb: sum / n };
}

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
  page = await browser.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await openSignedIn(page, app.url, await registerProAccount(app));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("effects while playing", () => {
  it("frequency shifter and noise change what the analyser hears, and switching off restores it", async () => {
    // Pro unlocks channels 2-4 and the effects once the profile has loaded.
    await expect.poll(() => page.getByRole("switch", { name: "Channel 2 on/off" }).isEnabled()).toBe(true);
    for (const i of [2, 3, 4]) await page.getByRole("switch", { name: `Channel ${i} on/off` }).uncheck();
    await page.getByLabel("Channel 1 frequency (Hz)").fill("1000");
    await page.getByRole("button", { name: "Play Audio" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    const dry = await until(() => spectrum(page), (x) => Math.abs(x.peakHz - 1000) < 60);
    expect(Math.abs(dry.peakHz - 1000)).toBeLessThan(60);

    await openSection(page, "Effects");
    const shifter = page.getByRole("switch", { name: "Frequency Shifter", exact: true });
    await page.getByLabel("Frequency Shifter value").fill("500");
    await shifter.check();
    expect(Math.abs((await until(() => spectrum(page), (x) => Math.abs(x.peakHz - 1500) < 60)).peakHz - 1500)).toBeLessThan(60);
    await shifter.uncheck();
    expect(Math.abs((await until(() => spectrum(page), (x) => Math.abs(x.peakHz - 1000) < 60)).peakHz - 1000)).toBeLessThan(60);

    const noise = page.getByRole("switch", { name: "Noise", exact: true });
    await page.getByLabel("Noise value").fill("100");
    await noise.check();
    await until(() => spectrum(page), (x) => x.highDb > dry.highDb + 20);
    const noisy = await spectrum(page); // the next window, at the noise's full level
    expect(noisy.highDb).toBeGreaterThan(dry.highDb + 20);
    await noise.uncheck();
    expect((await until(() => spectrum(page), (x) => x.highDb < noisy.highDb - 20)).highDb).toBeLessThan(noisy.highDb - 20);

    await page.getByRole("button", { name: "Stop Audio" }).click();
  });
});
