// The landing section's demo cards in real Chromium: open to anonymous visitors; the first tap on
// a cold page creates the AudioContext inside the click and sounds (with the autoplay policy on);
// two cards play at once (the page's output analyser hears both tones, the Media Session names
// both) and stop independently;
// a card plays beside the studio's own playback without touching it. Screenshots at desktop and
// phone sizes go to .tmp/screenshots/.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { CHROMIUM_ARGS, launchChromium, screenshotPath, startBrowserApp, until, type BrowserApp } from "./browser";
import { openFreeStudio } from "./session";

let run: BrowserApp;

interface Heard {
  /** dB at the loudest bin within ±6 Hz of each asked frequency. */
  at: number[];
  /** Peak sample level. */
  peak: number;
}

/** What the page's output (studio and cards mixed) plays: levels near `hz`, averaged over a few
 *  reads of the 8192-point output analyser (5.9 Hz bins). */
function hear(p: Page, hz: number[]): Promise<Heard> {
  return p.evaluate(async (freqs) => {
    const a = (window as unknown as { __toneStudio: { audio: { outputAnalyser: AnalyserNode } } }).__toneStudio.audio.outputAnalyser;
    const binHz = a.context.sampleRate / a.fftSize;
    const bins = new Float32Array(a.frequencyBinCount);
    const sum = new Float64Array(freqs.length);
    const wave = new Float32Array(a.fftSize);
    let peak = 0;
    const reads = 4;
    for (let r = 0; r < reads; r++) {
      await new Promise((res) => setTimeout(res, 120));
      a.getFloatFrequencyData(bins);
      a.getFloatTimeDomainData(wave);
      for (const v of wave) peak = Math.max(peak, Math.abs(v));
      freqs.forEach((f, i) => {
        let m = -Infinity;
        for (let k = Math.floor((f - 6) / binHz); k <= Math.ceil((f + 6) / binHz); k++) m = Math.max(m, bins[k]);
        sum[i] += Math.max(m, -200) / reads;
      });
    }
    return { at: Array.from(sum), peak };
  }, hz);
}

function mediaSession(p: Page): Promise<{ state: string; title: string | undefined }> {
  return p.evaluate(() => ({ state: navigator.mediaSession.playbackState, title: navigator.mediaSession.metadata?.title }));
}

const tryButton = (p: Page, title: string) => p.getByRole("button", { name: `Try ${title}`, exact: true });
const stopButton = (p: Page, title: string) => p.getByRole("button", { name: `Stop ${title}`, exact: true });
const SOLFEGGIO = "Solfeggio 852 + 417 + 528";

beforeAll(async () => {
  run = await startBrowserApp();
});

afterAll(() => run?.close());

describe("demo cards", () => {
  it("anonymous visitors get the four cards; two play at once and stop independently", async () => {
    const page = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    await page.goto(run.app.url + "/");
    const section = page.getByRole("region", { name: "Create Amazing Sounds Easily" });
    await section.waitFor();
    expect(await section.getByRole("heading", { level: 3 }).allTextContents()).toEqual(["Gamma Focus", "Theta Meditation", "Schumann Resonance", SOLFEGGIO]);
    expect(await section.getByText("40 Hz · Square").count()).toBe(1);
    expect(await section.getByText("7.83 Hz · Sawtooth").count()).toBe(1);

    await tryButton(page, "Gamma Focus").click();
    await stopButton(page, "Gamma Focus").waitFor();
    await tryButton(page, SOLFEGGIO).click();
    await stopButton(page, SOLFEGGIO).waitFor();
    await section.screenshot({ path: screenshotPath("demo-cards-1280.png") });
    // 40 Hz (Gamma's square) and the three solfeggio tones, against a quiet reference at 1500 Hz.
    const both = await until(() => hear(page, [40, 417, 528, 852, 1500]), (h) => h.at.slice(0, 4).every((level) => level > -60 && level - h.at[4] > 25));
    const [g40, s417, s528, s852, quiet] = both.at;
    for (const level of [g40, s417, s528, s852]) expect(level).toBeGreaterThan(-60);
    for (const level of [g40, s417, s528, s852]) expect(level - quiet).toBeGreaterThan(25);
    // The lock screen (Media Session) names both cards.
    expect(await mediaSession(page)).toEqual({ state: "playing", title: `Gamma Focus + ${SOLFEGGIO}` });
    // The studio's own playback is untouched: it never started.
    expect(await page.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { isPlaying: boolean } } } }).__toneStudio.store.getState().isPlaying)).toBe(false);

    await stopButton(page, "Gamma Focus").click();
    await tryButton(page, "Gamma Focus").waitFor();
    const one = await until(() => hear(page, [40, 528, 852]), (h) => h.at[0] < g40 - 30 && h.at[1] > s528 - 6 && h.at[2] > s852 - 6);
    expect(one.at[0]).toBeLessThan(g40 - 30);
    expect(one.at[1]).toBeGreaterThan(s528 - 6);
    expect(one.at[2]).toBeGreaterThan(s852 - 6);
    expect(await stopButton(page, SOLFEGGIO).count()).toBe(1);

    await stopButton(page, SOLFEGGIO).click();
    expect((await until(() => hear(page, [852]), (h) => h.peak === 0)).peak).toBe(0);
    expect((await mediaSession(page)).state).toBe("none");
    // A stopped card's engine is torn down: Try again plays afresh.
    await tryButton(page, SOLFEGGIO).click();
    expect((await until(() => hear(page, [852]), (h) => h.at[0] > -70)).at[0]).toBeGreaterThan(-70);
    await stopButton(page, SOLFEGGIO).click();
    await page.close();
  });

  it("the first tap on a cold page starts sound, with the context made inside the click (autoplay policy on)", async () => {
    const strict = await launchChromium(CHROMIUM_ARGS.filter((a) => !a.startsWith("--autoplay-policy")));
    try {
      const page = await strict.newPage();
      await page.goto(run.app.url + "/");
      await tryButton(page, "Theta Meditation").waitFor();
      expect(await page.evaluate(() => (window as unknown as { __toneStudio: { audio: { context: unknown } } }).__toneStudio.audio.context)).toBe(null);
      // A listener that runs right after React's click handler, still inside the same event.
      await page.evaluate(() => {
        window.addEventListener("click", () => {
          const c = (window as unknown as { __toneStudio: { audio: { context: AudioContext | null } } }).__toneStudio.audio.context;
          (window as unknown as { __contextAtClick: string }).__contextAtClick = c ? "created" : "missing";
        }, { once: true });
      });
      await tryButton(page, "Theta Meditation").click();
      expect(await page.evaluate(() => (window as unknown as { __contextAtClick: string }).__contextAtClick)).toBe("created");
      await expect.poll(() => page.evaluate(() => (window as unknown as { __toneStudio: { audio: { context: AudioContext } } }).__toneStudio.audio.context.state)).toBe("running");
      // Theta is a 6 Hz pulse over white noise: broadband sound at the output, rising over the
      // listener's fade-in (2 s by default) and gated by the pulses, so it is polled.
      await expect.poll(async () => (await hear(page, [3000, 8000])).at.every((db) => db > -100), { timeout: 5000 }).toBe(true);
      await stopButton(page, "Theta Meditation").click();
    } finally {
      await strict.close();
    }
  });

  it("a card plays beside the studio's own playback and stops without touching it", async () => {
    const page = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openFreeStudio(page, run.app.url);
    await page.getByLabel("Channel 1 frequency (Hz)").fill("1000");
    await page.getByRole("button", { name: "Play Audio" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    // Signed in, the demo cards are under the studio, in "About Tone Studio".
    await page.getByText("About Tone Studio", { exact: false }).click();
    await tryButton(page, "Gamma Focus").click();
    const mixed = await until(() => hear(page, [40, 1000]), (h) => h.at[0] > -70 && h.at[1] > -70);
    expect(mixed.at[0]).toBeGreaterThan(-70);
    expect(mixed.at[1]).toBeGreaterThan(-70);
    // The studio's own analyser hears only the studio: no 40 Hz from the card.
    const studioOnly = await page.evaluate(async () => {
      const audio = (window as unknown as { __toneStudio: { audio: { spectrumAnalyser: AnalyserNode } } }).__toneStudio.audio;
      const a = audio.spectrumAnalyser;
      const bins = new Float32Array(a.frequencyBinCount);
      for (let i = 0; i < 15; i++) {
        await new Promise((r) => setTimeout(r, 20));
        a.getFloatFrequencyData(bins);
      }
      return bins[0];
    });
    expect(studioOnly).toBeLessThan(-90);

    await stopButton(page, "Gamma Focus").click();
    const after = await until(() => hear(page, [40, 1000]), (h) => h.at[0] < mixed.at[0] - 30 && h.at[1] > mixed.at[1] - 3);
    expect(after.at[0]).toBeLessThan(mixed.at[0] - 30);
    expect(after.at[1]).toBeGreaterThan(mixed.at[1] - 3);
    expect(await page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await page.close();
  });

  it("fits a 390 px phone", async () => {
    const page = await run.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(run.app.url + "/");
    const section = page.getByRole("region", { name: "Create Amazing Sounds Easily" });
    await section.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const box of await section.locator("article").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(390);
    }
    await section.screenshot({ path: screenshotPath("demo-cards-390.png") });
    await page.close();
  });
});
