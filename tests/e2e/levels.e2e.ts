// Safe listening in real Chromium: the sleep timer fades the sound out and stops
// playback (the analyser's level falls during the fade, playback ends by itself and the button
// returns to Play); the timer's countdown; the fade-in of every start; the levels persist over a
// reload and reach the engine; a loudness-normalised export (Pro) measures -16 LUFS and has the
// CLI's --normalize bytes; axe; screenshots at 1280 and 390 px.
// The studio is locked for anonymous visitors: a fresh free account (channel 1) is used.

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { LIMITER_CEILING_DBTP, NORMALISED_LUFS } from "../../dsp/host/schema/levels";
import { LoudnessMeter, TruePeakMeter } from "../../dsp/host/analysis/loudness";
import { parseWavHeader } from "../../dsp/host/export/wav";
import { singleTone } from "../unit/dsp/assembly/helpers";
import { axeViolations, screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { openFreeStudio, openFreeStudioOnPhone, openSignedIn, registerProAccount } from "./session";
import { openSection } from "./sections";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

let run: BrowserApp;
let page: Page;

/** RMS of the engine's output over the waveform analyser's window. */
function level(p: Page): Promise<number> {
  return p.evaluate(() => {
    const a = (window as unknown as { __toneStudio: { audio: { waveAnalyser: AnalyserNode } } }).__toneStudio.audio.waveAnalyser;
    const data = new Float32Array(a.fftSize);
    a.getFloatTimeDomainData(data);
    let s = 0;
    for (const v of data) s += v * v;
    return Math.sqrt(s / data.length);
  });
}

/** The audio context's clock, to time readings against the engine rather than the page. */
function audioTime(p: Page): Promise<number> {
  return p.evaluate(() => (window as unknown as { __toneStudio: { audio: { context: AudioContext } } }).__toneStudio.audio.context.currentTime);
}

async function levelAt(p: Page, t: number): Promise<number> {
  await expect.poll(() => audioTime(p), { timeout: 15_000, interval: 20 }).toBeGreaterThanOrEqual(t);
  return level(p);
}

const panel = () => page.getByRole("region", { name: "Safe listening" });

beforeAll(async () => {
  run = await startBrowserApp();
  page = run.page;
  await page.goto(run.app.url + "/api/health");
  await page.evaluate(() => localStorage.setItem("tone-studio:tutorial", "skipped"));
  await openFreeStudio(page, run.app.url);
  await page.getByLabel("Channel 1 frequency (Hz)").fill("440");
  await openSection(page, "Levels & sleep");
});

afterAll(() => run?.close());

describe("safe listening in Chromium", () => {
  it("starts with a 2 s fade-in from silence", async () => {
    await page.getByRole("button", { name: "Play Audio" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
    const t0 = await audioTime(page);
    const early = await levelAt(page, t0 + 0.35);
    const full = await levelAt(page, t0 + 2.6);
    expect(full).toBeGreaterThan(0.01);
    expect(early).toBeLessThan(full * 0.4);
  });

  it("the sleep timer fades the sound out, ends playback and the button returns to Play", async () => {
    // The panel's shortest choice is 5 minutes: the same engine path is driven with 3 s (fade 2 s)
    // through the audio client the panel uses.
    const t0 = await audioTime(page);
    await page.evaluate(() => (window as unknown as { __toneStudio: { audio: { sleep(a: number, f: number): void } } }).__toneStudio.audio.sleep(3, 2));
    const before = await levelAt(page, t0 + 0.6);
    const middle = await levelAt(page, t0 + 2.0);
    const late = await levelAt(page, t0 + 2.75);
    expect(before).toBeGreaterThan(0.01);
    expect(middle).toBeLessThan(before * 0.8);
    expect(middle).toBeGreaterThan(before * 0.2);
    expect(late).toBeLessThan(middle * 0.5);
    await expect.poll(() => page.getByRole("button", { name: "Play Audio" }).count(), { timeout: 5000 }).toBe(1);
    // Silence follows: the analyser may still hold the fade's last few samples (about -130 dBFS)
    // for a moment after the button flips on a loaded machine, so it is polled until it reads 0.
    await expect.poll(() => level(page), { timeout: 3000 }).toBe(0);
  });

  it("shows the time left while the timer runs; Off stops it", async () => {
    const timer = panel().getByRole("timer");
    await panel().getByLabel("Stop after").selectOption("5");
    await expect.poll(() => timer.textContent()).toBe("Starts with playback: 5 min");
    await page.getByRole("button", { name: "Play Audio" }).click();
    await expect.poll(() => timer.textContent()).toMatch(/^Stops in (5:00|4:5\d)$/);
    await panel().screenshot({ path: screenshotPath("levels-panel-1280.png") });
    await page.screenshot({ path: screenshotPath("levels-1280.png"), fullPage: true });
    await panel().getByLabel("Stop after").selectOption("0");
    await expect.poll(() => timer.textContent()).toBe("Timer off");
    await page.getByRole("button", { name: "Stop Audio" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Play Audio" }).count()).toBe(1);
  });

  it("keeps the levels over a reload and sends them to the engine", async () => {
    const fadeIn = panel().getByLabel("Fade-in at every start");
    await fadeIn.focus();
    for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowLeft"); // 2 s -> 1 s
    const balance = panel().getByLabel("Ear balance");
    await balance.focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowRight"); // left ear down 3 dB
    await panel().getByRole("switch", { name: "Peak limiter (-1 dBTP)" }).uncheck();
    expect(await balance.getAttribute("aria-valuetext")).toBe("Left ear −3.0 dB");

    await page.reload();
    await panel().waitFor();
    expect(await panel().getByLabel("Fade-in at every start").getAttribute("aria-valuetext")).toBe("1 s");
    expect(await panel().getByLabel("Ear balance").getAttribute("aria-valuetext")).toBe("Left ear −3.0 dB");
    expect(await panel().getByRole("switch", { name: "Peak limiter (-1 dBTP)" }).isChecked()).toBe(false);
    await expect.poll(() => panel().textContent()).toContain("Left ear −3.0 dB");

    // The balance reaches the engine: the left side plays 3 dB under the right.
    const sides = await page.evaluate(async () => {
      const audio = (window as unknown as { __toneStudio: { audio: { toggle(): Promise<void>; node: AudioWorkletNode; context: AudioContext } } }).__toneStudio.audio;
      await audio.toggle();
      const ctx = audio.context;
      const split = new ChannelSplitterNode(ctx, { numberOfOutputs: 2 });
      const l = new AnalyserNode(ctx, { fftSize: 4096 });
      const r = new AnalyserNode(ctx, { fftSize: 4096 });
      audio.node.connect(split);
      split.connect(l, 0);
      split.connect(r, 1);
      const rms = (a: AnalyserNode) => {
        const d = new Float32Array(a.fftSize);
        a.getFloatTimeDomainData(d);
        return Math.sqrt(d.reduce((s, v) => s + v * v, 0) / d.length);
      };
      // Read until the sound is up and the sides settle at 3 dB apart (the checks below), at most 5 s.
      let out = { left: 0, right: 0 };
      for (const end = performance.now() + 5000; performance.now() < end; ) {
        await new Promise((res) => setTimeout(res, 50));
        out = { left: rms(l), right: rms(r) };
        if (out.right > 0.005 && Math.abs(20 * Math.log10(out.left / out.right) + 3) < 0.05) break;
      }
      await audio.toggle();
      return out;
    });
    expect(sides.right).toBeGreaterThan(0.005);
    expect(20 * Math.log10(sides.left / sides.right)).toBeCloseTo(-3, 1);
  });

  it("exports a loudness-normalised WAV (Pro): -16 LUFS, under -1 dBTP, the CLI's --normalize bytes", async () => {
    const state = { ...singleTone(220, "triangle"), duration: 8 };
    const dir = mkdtempSync(join(tmpdir(), "levels-e2e-"));
    const pro = await run.browser.newPage();
    try {
      // The save picker answers with an OPFS file the test reads back (as in export.e2e.ts).
      await pro.addInitScript(`window.showSaveFilePicker = async (o) => (await navigator.storage.getDirectory()).getFileHandle(o.suggestedName, { create: true });`);
      await pro.goto(run.app.url + "/api/health");
      await pro.evaluate(() => localStorage.setItem("tone-studio:tutorial", "skipped"));
      await openSignedIn(pro, run.app.url, await registerProAccount(run.app));
      await pro.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
      await pro.evaluate((s) => {
        const { store } = (window as unknown as { __toneStudio: { store: { getState(): { load(s: unknown): void }; setState(s: object): void } } }).__toneStudio;
        store.getState().load(s);
        store.setState({ duration: s.duration });
      }, state);
      await pro.getByRole("checkbox", { name: "Normalise loudness (-16 LUFS)" }).check();
      await pro.getByRole("button", { name: "Export WAV" }).click();
      const done = pro.getByRole("status").filter({ hasText: "Export complete:" });
      await done.waitFor({ timeout: 30_000 });
      const name = (await done.textContent())!.replace("Export complete:", "").trim();
      const bytes = Buffer.from(
        await pro.evaluate(async (n) => {
          const file = await (await (await navigator.storage.getDirectory()).getFileHandle(n)).getFile();
          return Array.from(new Uint8Array(await file.arrayBuffer()));
        }, name),
      );
      const info = parseWavHeader(bytes);
      const view = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataBytes);
      const left = Float32Array.from({ length: info.frames }, (_, i) => view.getInt16(i * 4, true) / 32768);
      const right = Float32Array.from({ length: info.frames }, (_, i) => view.getInt16(i * 4 + 2, true) / 32768);
      const lufs = new LoudnessMeter(48000, 2);
      lufs.push(left, right);
      const tp = new TruePeakMeter(2);
      tp.push(left, right);
      expect(Math.abs(lufs.integrated() - NORMALISED_LUFS)).toBeLessThan(0.1);
      expect(tp.truePeakDb()).toBeLessThanOrEqual(LIMITER_CEILING_DBTP);

      const preset = join(dir, "preset.json");
      writeFileSync(preset, JSON.stringify(state));
      const out = join(dir, "cli.wav");
      await promisify(execFile)(join(REPO, "node_modules", ".bin", "tsx"), ["scripts/render.ts", "--preset", preset, "--out", out, "--normalize"], { cwd: REPO });
      expect(readFileSync(out).equals(bytes)).toBe(true);
    } finally {
      await pro.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("has no axe violations of any impact", async () => {
    const found = await axeViolations(page, { include: "section.safe-listening" });
    expect(found, JSON.stringify(found, null, 2)).toEqual([]);
  });

  it("fits a 390 px phone", async () => {
    const phone = await openFreeStudioOnPhone(run.browser, run.app.url);
    await openSection(phone, "Levels & sleep");
    const region = phone.getByRole("region", { name: "Safe listening" });
    await region.scrollIntoViewIfNeeded();
    await region.screenshot({ path: screenshotPath("levels-390.png") });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await region.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await phone.close();
  });
});
