// Voices in the studio, in real Chromium, as a Pro account uses them: an .sbg schedule the four
// channels cannot play (seven binaural pairs with their own beats and pink noise) is imported as
// voices; the timeline's Voices panel lists the eight voices with their values; Play is heard
// through the page's output analyser (a peak at a pair's carrier), an edited carrier is heard moving;
// Export WAV carries carrier + beat/2 in the left ear and carrier - beat/2 in the right, and its
// bytes equal what the CLI (scripts/render.ts --sbg) writes for the same schedule. Keyboard, axe
// (every impact level) and screenshots at 1280 and 390 px (.tmp/screenshots/voices-*.png). A
// schedule that names a soundtrack (-m) asks for the file; the OGG the user picks is heard under
// the voices, loops, and the exported WAV is again the CLI's, byte for byte.

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBinary } from "../../api/platform/binaries";
import { parseWavHeader } from "../../dsp/host/export/wav";
import type { VoiceSlots } from "../../dsp/host/schema/voices";
import { peakFrequency } from "../unit/dsp/assembly/helpers";
import { settledSpectrum } from "./analyser";
import { axeViolations, screenshotPath, startBrowserApp, type BrowserApp } from "./browser";
import { openSignedIn, registerProAccount } from "./session";
import { openSection } from "./sections";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");

/** Seven binaural pairs (each its own beat) and pink noise: eight voices, 30 s (-E ends it). */
const PAIRS: [number, number][] = [[200, 4], [300, 5], [400, 6], [500, 10], [600, 7], [700, 8], [800, 9]];
const SBG = ["-SE", `ts: ${PAIRS.map(([c, b]) => `${c}+${b}/10`).join(" ")} pink/10`, "NOW ts", "NOW+00:00:30 ts", ""].join("\n");
const EXPECTED: VoiceSlots = [...PAIRS.map(([carrier, beat]) => ({ kind: "binaural" as const, carrier, beat, amp: 10 })), { kind: "noise", colour: "pink", amp: 10 }];

let run: BrowserApp;
let page: Page;
let dir: string;

const panel = () => page.locator("section.timeline");
const voicesGroup = () => panel().locator("fieldset.tl-voices");

function storedVoices(p: Page): Promise<VoiceSlots | undefined> {
  return p.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { voices?: VoiceSlots } } } }).__toneStudio.store.getState().voices);
}

/** The analyser's level (dB) at `hz`: the loudest bin within 8 Hz of it (the studio's spectrum
 *  analyser is coarse, 93.75 Hz a bin: one or two bins). */
/** The pink noise's level: the median bin from 2 to 3 kHz (one bin of noise swings by several dB
 *  from frame to frame, the median does not). */
function noiseFloor(bins: number[], binHz: number): number {
  const band = bins.slice(Math.round(2000 / binHz), Math.round(3000 / binHz) + 1).sort((a, b) => a - b);
  return band[Math.floor(band.length / 2)];
}

function levelAt(bins: number[], binHz: number, hz: number): number {
  let m = -Infinity;
  for (let k = Math.floor((hz - 8) / binHz); k <= Math.ceil((hz + 8) / binHz); k++) m = Math.max(m, bins[k]);
  return m;
}

/** The CLI (scripts/render.ts --sbg, 30 s, the studio's default levels) writes `bytes` for the
 *  schedule `text`, saved as `name` in the test folder (beside any soundtrack it names). */
async function expectCliBytes(name: string, text: string, bytes: Uint8Array): Promise<void> {
  const sbgFile = join(dir, name);
  const out = join(dir, `${name}.wav`);
  writeFileSync(sbgFile, text);
  await promisify(execFile)(TSX, ["scripts/render.ts", "--sbg", sbgFile, "--duration", "30", "--out", out, "--quiet"], { cwd: REPO });
  const cli = new Uint8Array(readFileSync(out));
  expect(cli.length).toBe(bytes.length);
  expect(cli.findIndex((v, i) => v !== bytes[i])).toBe(-1);
}

async function typeInto(label: string, text: string): Promise<void> {
  const box = panel().getByLabel(label, { exact: true });
  await box.fill(text);
  await box.press("Enter");
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "voices-e2e-"));
  run = await startBrowserApp({}, { width: 1280, height: 900 });
  page = run.page;
  // No save picker: Export WAV goes through OPFS and downloads, the path every browser has.
  await page.addInitScript("Object.defineProperty(window, 'showSaveFilePicker', { value: undefined });");
  await openSignedIn(page, run.app.url, await registerProAccount(run.app));
  await page.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
  await openSection(page, "Session");
});

afterAll(async () => {
  await run?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("voices in the studio", () => {
  it("imports a schedule of 8 voices as voices and lists them in the Voices panel", async () => {
    await panel().locator('input[type="file"]').setInputFiles({ name: "pairs.sbg", mimeType: "text/plain", buffer: Buffer.from(SBG) });
    await expect.poll(() => panel().getByRole("status").textContent()).toBe("Imported pairs.sbg.");
    expect(await storedVoices(page)).toEqual(EXPECTED);
    // The text view shows the session written back in voices.
    expect(await panel().getByLabel("Session as text (.sbg)", { exact: true }).inputValue()).toContain("500+10/10");

    await voicesGroup().waitFor();
    expect(await voicesGroup().locator("h3").textContent()).toBe("Voices at the start (00:00:00)");
    expect(await voicesGroup().locator("li.tl-voice").count()).toBe(8);
    for (const [i, [carrier, beat]] of PAIRS.entries()) {
      expect(await panel().getByLabel(`Voice ${i + 1} kind`, { exact: true }).inputValue()).toBe("binaural");
      expect(await panel().getByLabel(`Voice ${i + 1} carrier (Hz)`, { exact: true }).inputValue()).toBe(String(carrier));
      expect(await panel().getByLabel(`Voice ${i + 1} beat (Hz)`, { exact: true }).inputValue()).toBe(String(beat));
      expect(await panel().getByLabel(`Voice ${i + 1} amp (%)`, { exact: true }).inputValue()).toBe("10");
    }
    expect(await panel().getByLabel("Voice 8 kind", { exact: true }).inputValue()).toBe("noise");
    expect(await panel().getByLabel("Voice 8 colour", { exact: true }).inputValue()).toBe("pink");
    expect(await panel().getByLabel("Voice 8 amp (%)", { exact: true }).inputValue()).toBe("10");

    // Keyboard: Tab goes from a voice's kind to its waveform, carrier, beat, amp and its Remove button.
    await panel().getByLabel("Voice 4 kind", { exact: true }).focus();
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      order.push(await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? ""));
    }
    expect(order).toEqual(["Voice 4 waveform", "Voice 4 carrier (Hz)", "Voice 4 beat (Hz)", "Voice 4 amp (%)", "Remove voice 4"]);
  });

  it("plays the voices, and an edited carrier is heard moving", async () => {
    await page.getByRole("button", { name: "Play Audio" }).click();
    try {
      await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
      // Once the 2 s fade-in is over (read until it is: a loaded machine's audio clock lags), every
      // pair (200-800 Hz) stands well above the pink noise alone (2-3 kHz); silence would be 0 dB.
      const quietestPair = async () => {
        const sp = await settledSpectrum(page);
        const floor = noiseFloor(sp.bins, sp.binHz);
        return Math.min(...PAIRS.map(([carrier]) => levelAt(sp.bins, sp.binHz, carrier) - floor));
      };
      await page.waitForTimeout(2000);
      await expect.poll(quietestPair, { timeout: 10_000 }).toBeGreaterThan(15);
      const before = await settledSpectrum(page);

      await typeInto("Voice 4 carrier (Hz)", "1500");
      expect((await storedVoices(page))![3]).toEqual({ kind: "binaural", carrier: 1500, beat: 10, amp: 10 });
      await page.waitForTimeout(300);
      const after = await settledSpectrum(page);
      expect(levelAt(after.bins, after.binHz, 1500) - levelAt(before.bins, before.binHz, 1500)).toBeGreaterThan(15);
      expect(levelAt(after.bins, after.binHz, 1500) - noiseFloor(after.bins, after.binHz)).toBeGreaterThan(20);
    } finally {
      if (await page.getByRole("button", { name: "Stop Audio" }).count()) await page.getByRole("button", { name: "Stop Audio" }).click();
    }
    // Back to the schedule's own carrier, for the export to compare with the CLI's.
    await typeInto("Voice 4 carrier (Hz)", "500");
    expect(await storedVoices(page)).toEqual(EXPECTED);
  });

  it("exports a WAV whose ears carry carrier + beat/2 and carrier - beat/2, byte for byte the CLI's", async () => {
    const wav = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export WAV" }).click();
    await page.getByRole("status").filter({ hasText: "Export complete:" }).waitFor({ timeout: 60_000 });
    const bytes = new Uint8Array(readFileSync((await (await wav).path())!));
    const info = parseWavHeader(bytes);
    expect(info.frames).toBe(30 * 48_000);
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset + info.dataOffset, info.frames * 2);
    const size = 65_536; // 1.37 s at 48 kHz: 0.73 Hz a bin
    const from = 10 * 48_000;
    const ear = (side: 0 | 1) => Float64Array.from({ length: size }, (_, i) => pcm[2 * (from + i) + side] / 32768);
    const [carrier, beat] = PAIRS[3];
    expect(peakFrequency(ear(0), 48_000, size, carrier - 20, carrier + 20)).toBeCloseTo(carrier + beat / 2, 0);
    expect(peakFrequency(ear(1), 48_000, size, carrier - 20, carrier + 20)).toBeCloseTo(carrier - beat / 2, 0);

    // The CLI writes the same bytes for the same schedule: the studio's default levels (2 s
    // fade-in, limiter) are the CLI's defaults, and the export's length is the schedule's 30 s.
    await expectCliBytes("pairs.sbg", SBG, bytes);
  });

  it("passes axe at every impact level and fits a 1280 px screen and a 390 px phone", async () => {
    expect(await axeViolations(page, { include: "section.timeline" })).toEqual([]);
    await voicesGroup().screenshot({ path: screenshotPath("voices-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const group = await voicesGroup().boundingBox();
    expect(group!.x).toBeGreaterThanOrEqual(0);
    expect(group!.x + group!.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(page, { include: "section.timeline" })).toEqual([]);
    await voicesGroup().screenshot({ path: screenshotPath("voices-390.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("adds and removes a voice on a step; Add voice is there on a step without voices", async () => {
    await panel().getByRole("button", { name: "Add step" }).click();
    // The new step plays the voices from before; Add voice gives it its own set.
    expect(await voicesGroup().locator("h3").textContent()).toMatch(/^Voices at step 1 of 1/);
    await voicesGroup().getByRole("button", { name: "Add voice" }).click();
    await expect.poll(() => voicesGroup().locator("li.tl-voice").count()).toBe(9);
    expect(await panel().getByLabel("Voice 9 kind", { exact: true }).inputValue()).toBe("tone");
    await panel().getByLabel("Voice 9 kind", { exact: true }).selectOption("spin");
    expect(await panel().getByLabel("Voice 9 width (µs)", { exact: true }).inputValue()).toBe("300");
    await panel().getByRole("button", { name: "Remove voice 9" }).click();
    await expect.poll(() => voicesGroup().locator("li.tl-voice").count()).toBe(8);
    expect(await storedVoices(page)).toEqual(EXPECTED); // the start's voices are untouched
  });

  it("imports a schedule of 8 voices with a soundtrack, plays the file the user picks, and exports the CLI's bytes", async () => {
    // The soundtrack: 3 s of 1500 Hz at 44.1 kHz as OGG Vorbis (decoded, resampled and looped by the page).
    const track = join(dir, "hum.ogg");
    await promisify(execFile)(requireBinary("ffmpeg").path, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1500:sample_rate=44100:duration=3", "-c:a", "libvorbis", track]);
    const sbg = ["-SE", "-m hum.ogg", `ts: ${PAIRS.map(([c, b]) => `${c}+${b}/10`).join(" ")} pink/10 mix/60`, "NOW ts", "NOW+00:00:20 ts", ""].join("\n");
    await panel().getByTestId("sbg-file").setInputFiles({ name: "with-mix.sbg", mimeType: "text/plain", buffer: Buffer.from(sbg) });
    await expect
      .poll(() => panel().getByRole("status").first().textContent())
      .toBe("Imported with-mix.sbg. It plays the soundtrack hum.ogg: choose the file under Voices, Soundtrack.");
    expect((await storedVoices(page))!.map((v) => v?.kind)).toEqual([...PAIRS.map(() => "binaural"), "noise", "mix"]);
    const status = voicesGroup().getByTestId("soundtrack-status");
    expect(await status.textContent()).toBe("This session plays hum.ogg: choose the file to hear it. Until then its Soundtrack voices are silent.");

    await voicesGroup().getByTestId("soundtrack-file").setInputFiles(track);
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("hum.ogg is loaded (0:03, looping).");

    await page.getByRole("button", { name: "Play Audio" }).click();
    try {
      await expect.poll(() => page.getByRole("button", { name: "Stop Audio" }).count()).toBe(1);
      await page.waitForTimeout(2000);
      // The soundtrack (1500 Hz) and every pair stand above the noise, also after the file's own 3 s (it loops).
      const quietest = async () => {
        const sp = await settledSpectrum(page);
        const floor = noiseFloor(sp.bins, sp.binHz);
        return Math.min(levelAt(sp.bins, sp.binHz, 1500) - floor, ...PAIRS.map(([carrier]) => levelAt(sp.bins, sp.binHz, carrier) - floor));
      };
      await expect.poll(quietest, { timeout: 10_000 }).toBeGreaterThan(15);
      await page.waitForTimeout(2000);
      expect(await quietest()).toBeGreaterThan(15);
    } finally {
      if (await page.getByRole("button", { name: "Stop Audio" }).count()) await page.getByRole("button", { name: "Stop Audio" }).click();
    }

    const wav = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export WAV" }).click();
    await page.getByRole("status").filter({ hasText: "Export complete:" }).waitFor({ timeout: 60_000 });
    const bytes = new Uint8Array(readFileSync((await (await wav).path())!));
    await expectCliBytes("with-mix.sbg", sbg, bytes);
    // And the soundtrack is in it: 1500 Hz in the left ear at 15 s, after five turns of its loop.
    const info = parseWavHeader(bytes);
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset + info.dataOffset, info.frames * 2);
    const left = Float64Array.from({ length: 65_536 }, (_, i) => pcm[2 * (15 * 48_000 + i)] / 32768);
    expect(peakFrequency(left, 48_000, 65_536, 1000, 2000)).toBeCloseTo(1500, 0);
    expect(await axeViolations(page, { include: "section.timeline" })).toEqual([]);
  });

  it("imports a -p curve schedule chosen together with its .sbgf and its soundtrack in one pick", async () => {
    const curve = "beat = lerp(b0,b1,ramp(m,0,D))\nmixamp = m0 * (1 - 0.5*ramp(m,0,T))\n";
    const sbg = "-m hum.ogg\n-p curve fall.sbgf t2,0,0 00ls mix/60\n";
    await panel().getByTestId("sbg-file").setInputFiles([
      { name: "curve.sbg", mimeType: "text/plain", buffer: Buffer.from(sbg) },
      { name: "fall.sbgf", mimeType: "text/plain", buffer: Buffer.from(curve) },
      { name: "hum.ogg", mimeType: "audio/ogg", buffer: readFileSync(join(dir, "hum.ogg")) },
    ]);
    await expect.poll(() => panel().getByRole("status").first().textContent()).toBe("Imported curve.sbg.");
    const status = voicesGroup().getByTestId("soundtrack-status");
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("hum.ogg is loaded (0:03, looping).");
    // The first point: 10 Hz and the whole mix level; the file moves both over the 2 minutes.
    const first = await page.evaluate(() => (window as unknown as { __toneStudio: { store: { getState(): { timeline?: { steps: { voices?: unknown[] }[] } } } } }).__toneStudio.store.getState().timeline!.steps[1].voices);
    expect(first).toEqual([{ kind: "binaural", carrier: 205, beat: 10, amp: 1 }, { kind: "mix", amp: 60 }]);
  });
});
