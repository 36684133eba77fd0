// The waveform and spectrogram displays in real Chromium: the spectrogram is hidden until
// toggled; while the studio plays its columns move and show the tone at the right height on the
// log-frequency axis, each display counting the frames it draws; stopped, scrolled out of view or
// with the tab hidden, the displays do no frame work at all (requestAnimationFrame is counted),
// while the sound itself keeps going in a hidden tab. The analysers follow the display profile
// (this machine's cores, or a made-up 16-core desktop). A screenshot of both displays playing goes
// to .tmp/screenshots/.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { openFreeStudio } from "./session";
import { openSection } from "./sections";

let run: BrowserApp;
let page: Page;

/** Counts requestAnimationFrame calls made by the page (Playwright's own run in another world). */
function countAnimationFrames(): void {
  const raf = window.requestAnimationFrame.bind(window);
  let calls = 0;
  window.requestAnimationFrame = (cb) => {
    calls++;
    return raf(cb);
  };
  Object.defineProperty(window, "__rafCalls", { get: () => calls });
}

const rafCalls = (p: Page) => p.evaluate(() => (window as unknown as { __rafCalls: number }).__rafCalls);
/** Frames each display has drawn (web/displays/display-frames.ts; the UI bench reads them). */
const framesDrawn = (p: Page) =>
  p.evaluate(() => {
    const f = (window as unknown as { __toneStudio: { displayFrames: Record<"waveform" | "spectrogram", { frames: number }> } }).__toneStudio.displayFrames;
    return { waveform: f.waveform.frames, spectrogram: f.spectrogram.frames };
  });
const pixels = (p: Page, selector: string) => p.evaluate((s) => document.querySelector<HTMLCanvasElement>(s)!.toDataURL(), selector);

/** Pretends the tab went to the background (or came back): document.hidden and the event. */
function setHidden(p: Page, hidden: boolean): Promise<void> {
  return p.evaluate((h) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

/** Scrolls the display panel (both canvases) into view. */
async function showDisplays(p: Page): Promise<void> {
  await p.locator("section.displays").evaluate((e) => e.scrollIntoView({ block: "center" }));
  await p.waitForTimeout(100);
}

/** rAF calls over `ms`. */
async function framesDuring(p: Page, ms: number): Promise<number> {
  const before = await rafCalls(p);
  await p.waitForTimeout(ms);
  return (await rafCalls(p)) - before;
}

/** No animation frames for half a second, and the spectrogram's pixels stay as they are. */
async function expectIdle(p: Page): Promise<void> {
  const before = await pixels(p, "canvas.spectrogram");
  expect(await framesDuring(p, 500)).toBe(0);
  expect(await pixels(p, "canvas.spectrogram")).toBe(before);
}

/** True when the waveform canvas shows only a flat line: every lit pixel within 2 rows of the middle. */
function waveformIsFlat(p: Page): Promise<boolean> {
  return p.evaluate(() => {
    const c = document.querySelector<HTMLCanvasElement>("canvas.waveform")!;
    const px = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let lit = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (px[i + 2] < 120) continue; // the background is #0b1020, the trace #7dd3fc
      lit++;
      if (Math.abs(Math.floor(i / 4 / c.width) - c.height / 2) > 2) return false;
    }
    return lit > c.width;
  });
}

/** The studio's waveform analyser's peak level (is sound still coming out?). */
function studioLevel(p: Page): Promise<number> {
  return p.evaluate(() => {
    const a = (window as unknown as { __toneStudio: { audio: { waveAnalyser: AnalyserNode } } }).__toneStudio.audio.waveAnalyser;
    const data = new Float32Array(a.fftSize);
    a.getFloatTimeDomainData(data);
    return data.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  });
}

/** The frequency (Hz) the brightest row of the spectrogram's newest column stands for, read off
 *  the page's own axis: the 100 Hz and 10k labels give the log scale. */
function brightestRowHz(p: Page): Promise<number> {
  return p.evaluate(() => {
    const c = document.querySelector<HTMLCanvasElement>("canvas.spectrogram")!;
    const px = c.getContext("2d")!.getImageData(c.width - 2, 0, 1, c.height).data;
    let best = 0;
    let row = 0;
    for (let y = 0; y < c.height; y++) {
      const v = px[y * 4] + px[y * 4 + 1] + px[y * 4 + 2];
      if (v > best) [best, row] = [v, y];
    }
    const canvasBox = c.getBoundingClientRect();
    const labelY = (text: string) => {
      const span = [...document.querySelectorAll(".spectrogram-axis span")].find((s) => s.textContent === text)!;
      const r = span.getBoundingClientRect();
      return (r.top + r.bottom) / 2 - canvasBox.top;
    };
    const y100 = labelY("100");
    const y10k = labelY("10k");
    const y = ((row + 0.5) / c.height) * canvasBox.height;
    return 100 * Math.pow(100, (y100 - y) / (y100 - y10k));
  });
}

beforeAll(async () => {
  run = await startBrowserApp({}, { width: 1280, height: 900 });
  page = run.page;
  page.on("console", (m) => { if (m.type() === "error") console.error("console:", m.text()); });
  await page.addInitScript(countAnimationFrames);
  await openFreeStudio(page, run.app.url);
  await page.getByLabel("Channel 1 frequency (Hz)").fill("432");
});

afterAll(() => run?.close());

describe("displays", () => {
  it("shows the waveform by default and the spectrogram, with its frequency axis, only when toggled", async () => {
    expect(await page.getByRole("img", { name: "Live waveform display" }).isVisible()).toBe(true);
    expect(await page.locator("canvas.spectrogram").count()).toBe(0);
    const toggle = page.getByRole("button", { name: "Show spectrogram" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    await page.getByRole("img", { name: /Live spectrogram display/ }).waitFor();
    expect(await page.getByRole("button", { name: "Hide spectrogram" }).getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator(".spectrogram-axis span").allTextContents()).toEqual(["50", "100", "200", "500", "1k", "2k", "5k", "10k", "20k"]);
    // 150 columns of 4 px in the performance profile (this machine's, with 4 or fewer cores), else 200.
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    expect(await page.locator("canvas.spectrogram").getAttribute("width")).toBe(cores <= 4 ? "600" : /* 200 columns */ "800");
    await page.locator("canvas.spectrogram").scrollIntoViewIfNeeded();
  });

  it("is idle while stopped: no animation frames and no pixel changes", async () => {
    await expectIdle(page);
  });

  it("while playing, the spectrogram's columns move and show the tone at its height on the axis", async () => {
    await page.getByRole("button", { name: "Play Audio" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    await showDisplays(page);
    await page.waitForTimeout(600);
    const drawn = await framesDrawn(page);
    expect(await framesDuring(page, 500)).toBeGreaterThan(5);
    const drawnLater = await framesDrawn(page);
    expect(drawnLater.waveform - drawn.waveform).toBeGreaterThan(5);
    expect(drawnLater.spectrogram - drawn.spectrogram).toBeGreaterThan(5);
    const spectrogram1 = await pixels(page, "canvas.spectrogram");
    const waveform1 = await pixels(page, "canvas.waveform");
    await page.waitForTimeout(250);
    expect(await pixels(page, "canvas.spectrogram")).not.toBe(spectrogram1);
    expect(await pixels(page, "canvas.waveform")).not.toBe(waveform1);
    expect(await waveformIsFlat(page)).toBe(false);
    // 432 Hz: within a few FFT bins (93.75 Hz apart at size 512, 46.9 Hz at 1024).
    await page.locator("section.displays").screenshot({ path: screenshotPath("displays-playing.png") });
    const hz = await brightestRowHz(page);
    expect(hz).toBeGreaterThan(330);
    expect(hz).toBeLessThan(560);
  });

  it("stops drawing while the displays are scrolled out of view", async () => {
    // The transport bar stays in view: the Effects tab makes the page long enough to scroll the
    // displays away.
    await openSection(page, "Effects");
    await page.locator("footer.site-footer").scrollIntoViewIfNeeded();
    const box = await page.locator("section.displays").boundingBox();
    expect(box!.y + box!.height).toBeLessThan(0); // above the viewport
    await page.waitForTimeout(100);
    expect(await framesDuring(page, 500)).toBe(0);
    await showDisplays(page);
    expect(await framesDuring(page, 500)).toBeGreaterThan(5);
  });

  it("stops drawing while the tab is hidden, but the sound goes on; draws again when it comes back", async () => {
    await setHidden(page, true);
    await page.waitForTimeout(100);
    expect(await framesDuring(page, 500)).toBe(0);
    expect(await studioLevel(page)).toBeGreaterThan(0.01);
    expect(await page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    await setHidden(page, false);
    expect(await framesDuring(page, 500)).toBeGreaterThan(5);
  });

  it("goes idle again when playback stops", async () => {
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await page.waitForTimeout(200);
    const drawn = await framesDrawn(page);
    await expectIdle(page);
    expect(await framesDrawn(page)).toEqual(drawn);
    expect(await waveformIsFlat(page)).toBe(true);
  });

  it("hiding the spectrogram removes it", async () => {
    await page.getByRole("button", { name: "Hide spectrogram" }).click();
    expect(await page.locator("canvas.spectrogram").count()).toBe(0);
    expect(await framesDuring(page, 300)).toBe(0);
  });

  it("sizes analysers and columns by the display profile", async () => {
    const profileOf = (p: Page) => p.evaluate(() => {
      const audio = (window as unknown as { __toneStudio: { audio: { profile: { name: string }; waveAnalyser: AnalyserNode; spectrumAnalyser: AnalyserNode } } }).__toneStudio.audio;
      return {
        name: audio.profile.name,
        wave: audio.waveAnalyser.fftSize,
        spectrum: audio.spectrumAnalyser.fftSize,
        smoothing: [audio.waveAnalyser.smoothingTimeConstant, audio.spectrumAnalyser.smoothingTimeConstant],
      };
    });
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const here = await profileOf(page);
    if (cores <= 4) expect(here).toMatchObject({ name: "performance", wave: 1024, spectrum: 512 });
    expect(here.smoothing[0]).toBeCloseTo(0.8);
    expect(here.smoothing[1]).toBeCloseTo(0.7);

    // A made-up 16-core desktop gets the full profile: 2048 / 1024 and 200 columns.
    const desk = await run.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await desk.addInitScript(() => Object.defineProperty(Navigator.prototype, "hardwareConcurrency", { get: () => 16 }));
    await openFreeStudio(desk, run.app.url);
    await desk.getByRole("button", { name: "Play Audio" }).click();
    await expect.poll(() => desk.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    expect(await profileOf(desk)).toMatchObject({ name: "high", wave: 2048, spectrum: 1024 });
    await desk.getByRole("button", { name: "Show spectrogram" }).click();
    expect(await desk.locator("canvas.spectrogram").getAttribute("width")).toBe("800");
    await desk.getByRole("button", { name: "Stop Audio" }).click();
    await desk.close();
  });
});
