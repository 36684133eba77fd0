// Listens to the studio in real Chromium: Play, read the AnalyserNode, move a frequency, Stop.
// The studio is locked for anonymous visitors, so the test signs in as a fresh free account,
// which has channel 1 (channels 2-4 are Pro only and stay at 0 Hz, off).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startBrowserApp, until, type BrowserApp } from "./browser";
import { openFreeStudio } from "./session";
import { FADE_IN_DEFAULT_SECONDS } from "../../dsp/host/schema/levels";

let run: BrowserApp;
let page: Page;

/** Dominant frequency (Hz) and level (dB) from the page's spectrum analyser, averaged over a few reads. */
async function dominant(p: Page): Promise<{ hz: number; db: number }> {
  return p.evaluate(async () => {
    const studio = (window as unknown as { __toneStudio: { audio: { spectrumAnalyser: AnalyserNode; context: AudioContext } } }).__toneStudio;
    const a = studio.audio.spectrumAnalyser;
    const bins = new Float32Array(a.frequencyBinCount);
    await new Promise((r) => setTimeout(r, 150));
    a.getFloatFrequencyData(bins);
    let k = 1;
    for (let i = 1; i < bins.length; i++) if (bins[i] > bins[k]) k = i;
    return { hz: (k * studio.audio.context.sampleRate) / a.fftSize, db: bins[k] };
  });
}

async function peakLevel(p: Page): Promise<number> {
  return p.evaluate(() => {
    const studio = (window as unknown as { __toneStudio: { audio: { waveAnalyser: AnalyserNode } } }).__toneStudio;
    const a = studio.audio.waveAnalyser;
    const data = new Float32Array(a.fftSize);
    a.getFloatTimeDomainData(data);
    let m = 0;
    for (const v of data) m = Math.max(m, Math.abs(v));
    return m;
  });
}

beforeAll(async () => {
  run = await startBrowserApp();
  page = run.page;
  await openFreeStudio(page, run.app.url);
});

afterAll(() => run?.close());

describe("studio playback in Chromium", () => {
  it("shows four labelled channel cards: channel 1 at its default, 2-4 locked for a free user", async () => {
    for (const [i, f, on] of [[1, "432", true], [2, "0", false], [3, "0", false], [4, "0", false]] as const) {
      await expect.poll(() => page.getByLabel(`Channel ${i} frequency (Hz)`).inputValue()).toBe(f);
      expect(await page.getByLabel(`Channel ${i} waveform`).inputValue()).toBe("sine");
      expect(await page.getByRole("switch", { name: `Channel ${i} on/off` }).isChecked()).toBe(on);
    }
  });

  it("plays the enabled channel, follows a live frequency change, and stops to silence", async () => {
    for (const i of [2, 3, 4]) await page.getByRole("switch", { name: `Channel ${i} on/off` }).uncheck();
    const input = page.getByLabel("Channel 1 frequency (Hz)");
    await input.fill("1000");
    await page.getByRole("button", { name: "Play Audio" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    // Heard once the default fade-in of every start (Safe listening) has brought it up.
    const first = await until(() => dominant(page), (d) => Math.abs(d.hz - 1000) < 60 && d.db > -60, { timeout: FADE_IN_DEFAULT_SECONDS * 1000 + 3000 });
    expect(Math.abs(first.hz - 1000)).toBeLessThan(60);
    expect(first.db).toBeGreaterThan(-60);

    await input.fill("3000");
    const moved = await until(() => dominant(page), (d) => Math.abs(d.hz - 3000) < 60);
    expect(Math.abs(moved.hz - 3000)).toBeLessThan(60);

    await page.getByRole("button", { name: "Stop Audio" }).click();
    expect(await until(() => peakLevel(page), (peak) => peak === 0)).toBe(0);
    await expect.poll(() => page.getByRole("button", { name: "Play Audio" }).count()).toBe(1);
  });

  it("does not start with no channel enabled", async () => {
    await page.getByRole("switch", { name: "Channel 1 on/off" }).uncheck();
    // Waits for the click's toggle to finish (whatever it decided), not for a fixed time.
    await page.evaluate(() => {
      const audio = (window as unknown as { __toneStudio: { audio: { toggle(): Promise<void> } } }).__toneStudio.audio;
      const toggle = audio.toggle.bind(audio);
      const w = window as unknown as { __toggles: Promise<void>[] };
      w.__toggles = [];
      audio.toggle = () => {
        const done = toggle();
        w.__toggles.push(done);
        return done;
      };
    });
    await page.getByRole("button", { name: "Play Audio" }).click();
    expect(await page.evaluate(() => Promise.all((window as unknown as { __toggles: Promise<void>[] }).__toggles).then((t) => t.length))).toBe(1);
    expect(await page.getByRole("button", { name: "Play Audio" }).count()).toBe(1);
  });
});
