// The studio's export formats in real Chromium, chosen in the real select beside the button and
// read back by an independent decoder (ffprobe and ffmpeg) from the file the worker wrote through
// the save picker (served by OPFS, as in export.e2e.ts): WAV 24-bit's header and depth; FLAC 16-bit
// and 24-bit decode to exactly the samples of the CLI's WAV of the same preset; MP3 at 320 kbps and
// Opus (WebCodecs) keep the tone; VBR MP3 is variable and indexed. The file name's extension, the button's label and the size
// estimate follow the choice, which is remembered across a reload; each export counts once.

import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBinary } from "../../api/platform/binaries";
import { mp3FrameLength } from "../../dsp/host/export/mp3-vbr";
import { FS, peakFrequency, singleTone } from "../unit/dsp/assembly/helpers";
import { launchChromium, startTestApp, type TestApp } from "./browser";
import { loadState, openSignedIn, registerProAccount } from "./session";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
const TONE = 1000;
const STATE = singleTone(TONE, "sine");
const SECONDS = 8;

let app: TestApp;
let browser: Browser;
let page: Page;
let dir: string;
let ffmpeg: string;
let ffprobe: string;

// The save picker answers with an OPFS file of the suggested name (a person pressing Save).
const PICKER_SCRIPT = `
  window.showSaveFilePicker = async (options) => {
    window.__pickerTypes = options && options.types;
    const root = await navigator.storage.getDirectory();
    return root.getFileHandle(options.suggestedName, { create: true });
  };
`;


/** Chooses `label` in the Export format select, exports, and copies the finished file to `dir`;
 *  with the export report's headline and lines. */
async function exportAs(label: string, button: string): Promise<{ name: string; path: string; summary: string; lines: string[] }> {
  await page.getByLabel("Export format", { exact: true }).selectOption({ label });
  await page.getByRole("button", { name: button }).click();
  const done = page.getByRole("status").filter({ hasText: "Export complete:" });
  await done.waitFor({ timeout: 60_000 });
  const name = (await done.textContent())!.replace("Export complete:", "").trim();
  const base64 = await page.evaluate(async (name) => {
    const file = await (await (await navigator.storage.getDirectory()).getFileHandle(name)).getFile();
    const bytes = new Uint8Array(await file.arrayBuffer());
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }, name);
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(base64, "base64"));
  const panel = page.getByRole("region", { name: "Export report" });
  await panel.waitFor();
  const summary = (await panel.locator(".export-report-summary").textContent()) ?? "";
  const lines = await panel.locator(".export-report-details li").allTextContents();
  await page.getByRole("button", { name: "Dismiss export status" }).click();
  return { name, path, summary, lines };
}

const probe = (file: string) =>
  JSON.parse(execFileSync(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels,bits_per_raw_sample:format=duration", "-of", "json", file], { encoding: "utf8" }));
const decode = (file: string, fmt: string) => execFileSync(ffmpeg, ["-v", "error", "-i", file, "-f", fmt, "-"], { maxBuffer: 1 << 28 });

/** The left ear's strongest frequency 3 s into the file. */
function toneOf(file: string): number {
  const b = decode(file, "f32le");
  const all = new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  return peakFrequency(Float32Array.from({ length: 1 << 17 }, (_, i) => all[2 * (3 * FS + i)]), FS, 1 << 17);
}

/** The MPEG frames of an MP3 file: whether the first is a Xing frame, and the other frames' bitrates. */
function mp3Frames(file: Buffer): { xing: boolean; bitrates: Set<number> } {
  const bitrates = new Set<number>();
  let xing = false;
  for (let at = 0, n = 0; at + 4 <= file.length; n++) {
    const len = mp3FrameLength(file, at);
    if (len === null) break;
    if (n === 0) xing = file.subarray(at, at + len).includes("Xing");
    else bitrates.add(file[at + 2] >> 4);
    at += len;
  }
  return { xing, bitrates };
}

async function cliWav(bits: 16 | 24, seconds = SECONDS): Promise<string> {
  const preset = join(dir, "preset.json");
  const out = join(dir, `cli-${bits}-${seconds}.wav`);
  writeFileSync(preset, JSON.stringify(STATE));
  await promisify(execFile)(TSX, ["scripts/render.ts", "--preset", preset, "--duration", String(seconds), "--bits", String(bits), "--out", out, "--quiet"], { cwd: REPO });
  return out;
}

beforeAll(async () => {
  ffmpeg = requireBinary("ffmpeg").path;
  ffprobe = requireBinary("ffprobe").path;
  dir = mkdtempSync(join(tmpdir(), "export-formats-e2e-"));
  app = await startTestApp();
  browser = await launchChromium();
  const context = await browser.newContext();
  const pro = await registerProAccount(app);
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.addInitScript(PICKER_SCRIPT);
  await openSignedIn(page, app.url, pro);
  await page.getByRole("button", { name: "Export WAV", disabled: false }).waitFor();
  await loadState(page, STATE, SECONDS);
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("export formats in Chromium", () => {
  it("offers every format, with the size estimate following the choice", async () => {
    const options = await page.getByLabel("Export format", { exact: true }).locator("option").allTextContents();
    expect(options).toEqual(["WAV 16-bit", "WAV 24-bit", "FLAC 16-bit (lossless)", "FLAC 24-bit (lossless)", "MP3", "Opus"]);
    await expect.poll(() => page.locator(".export-size").textContent()).toBe("WAV 16-bit, about 1.5 MB");
    await page.getByLabel("Export format", { exact: true }).selectOption({ label: "MP3" });
    await expect.poll(() => page.locator(".export-size").textContent()).toBe("MP3 320 kbps, about 320 kB");
    await page.getByLabel("MP3 bitrate").selectOption({ label: "128 kbps" });
    await expect.poll(() => page.locator(".export-size").textContent()).toBe("MP3 128 kbps, about 128 kB");
    expect(await page.getByLabel("MP3 bitrate").locator("option").allTextContents()).toEqual([
      "128 kbps", "160 kbps", "192 kbps", "224 kbps", "256 kbps", "320 kbps", "VBR V0 (about 245 kbps)", "VBR V2 (about 190 kbps)", "VBR V5 (about 130 kbps)",
    ]);
    await page.getByLabel("MP3 bitrate").selectOption({ label: "VBR V2 (about 190 kbps)" });
    await expect.poll(() => page.locator(".export-size").textContent()).toBe("MP3 VBR V2, about 190 kB");
    await page.getByLabel("MP3 bitrate").selectOption({ label: "320 kbps" });
  });

  it("WAV 24-bit: its header and depth, the CLI's samples", async () => {
    const cli = cliWav(24);
    const { name, path } = await exportAs("WAV 24-bit", "Export WAV");
    expect(name).toMatch(/^swizard-audio-.*\.wav$/);
    const p = probe(path);
    expect(p.streams[0]).toMatchObject({ codec_name: "pcm_s24le", sample_rate: "48000", channels: 2 });
    expect(Number(p.format.duration)).toBe(SECONDS);
    expect(decode(path, "s32le").equals(decode(await cli, "s32le"))).toBe(true);
  });

  for (const bits of [16, 24] as const) {
    it(`FLAC ${bits}-bit decodes bit-identical to the CLI's ${bits}-bit WAV`, async () => {
      const cli = cliWav(bits);
      const { name, path, summary, lines } = await exportAs(`FLAC ${bits}-bit (lossless)`, "Export FLAC");
      expect(name).toMatch(/^swizard-audio-.*\.flac$/);
      const p = probe(path);
      expect(p.streams[0]).toMatchObject({ codec_name: "flac", sample_rate: "48000", channels: 2, bits_per_raw_sample: String(bits) });
      expect(Number(p.format.duration)).toBe(SECONDS);
      const fmt = bits === 24 ? "s32le" : "s16le";
      expect(decode(path, fmt).equals(decode(await cli, fmt))).toBe(true);
      // The export report decoded the file back with Chromium's own decoder: every sample of its
      // windows within the dither of the render, the length to the frame, the tone unchanged.
      expect(summary).toMatch(/Verified: (\d+) of \1 checks passed\.$/);
      expect(lines).toContain("Decoded by the browser's WebCodecs decoder; tones within ±0.05 Hz and ±0.5 dB of the render");
      expect(lines).toContain(`PASS Duration in the file: 0:08 (8.000 s), rendered 8.000 s (to the frame)`);
      expect(lines.find((l) => l.startsWith("PASS Samples: the largest difference from the render is"))).toBeDefined();
      expect(lines.filter((l) => /^PASS (Start|Middle|End), channel 1: 1000\.0\d\d Hz/.test(l))).toHaveLength(3);
    });
  }

  for (const [label, button, codec, ext] of [
    ["MP3", "Export MP3", "mp3", "mp3"],
    ["Opus", "Export Opus", "opus", "opus"],
  ] as const) {
    it(`${label}: the codec, the length and the tone`, async () => {
      const { name, path, summary, lines } = await exportAs(label, button);
      expect(name.endsWith(`.${ext}`)).toBe(true);
      const p = probe(path);
      expect(p.streams[0]).toMatchObject({ codec_name: codec, sample_rate: "48000", channels: 2 });
      expect(Math.abs(Number(p.format.duration) - SECONDS)).toBeLessThan(0.1);
      expect(Math.abs(toneOf(path) - TONE)).toBeLessThan(0.05);
      expect(summary).toMatch(/Verified: (\d+) of \1 checks passed\.$/);
      expect(lines.filter((l) => /^PASS (Start|Middle|End), channel 1: (1000\.0|999\.9)\d\d Hz \([±+-]0\.0[0-4]\d Hz from the render\)/.test(l))).toHaveLength(3);
    });
  }

  it("MP3 VBR V2: frames of more than one bitrate behind a Xing frame, the length and the tone", async () => {
    await page.getByLabel("Export format", { exact: true }).selectOption({ label: "MP3" });
    await page.getByLabel("MP3 bitrate").selectOption({ label: "VBR V2 (about 190 kbps)" });
    try {
      const { name, path, summary, lines } = await exportAs("MP3", "Export MP3");
      expect(name.endsWith(".mp3")).toBe(true);
      const p = probe(path);
      expect(p.streams[0]).toMatchObject({ codec_name: "mp3", sample_rate: "48000", channels: 2 });
      expect(Math.abs(Number(p.format.duration) - SECONDS)).toBeLessThan(0.1);
      expect(Math.abs(toneOf(path) - TONE)).toBeLessThan(0.05);
      const { xing, bitrates } = mp3Frames(readFileSync(path));
      expect(xing).toBe(true);
      expect(bitrates.size).toBeGreaterThan(1);
      expect(summary).toMatch(/Verified: (\d+) of \1 checks passed\.$/);
      expect(lines.filter((l) => /^PASS (Start|Middle|End), channel 1: (1000\.0|999\.9)\d\d Hz/.test(l))).toHaveLength(3);
    } finally {
      await page.getByLabel("Export format", { exact: true }).selectOption({ label: "MP3" });
      await page.getByLabel("MP3 bitrate").selectOption({ label: "320 kbps" });
    }
  });

  it("remembers the choice across a reload, and counted each export once", async () => {
    await page.getByLabel("Export format", { exact: true }).selectOption({ label: "FLAC 24-bit (lossless)" });
    await page.reload();
    await page.getByRole("button", { name: "Export FLAC", disabled: false }).waitFor();
    expect(await page.getByLabel("Export format", { exact: true }).inputValue()).toBe("flac24");
    // Six exports above, from 100 a period.
    await page.getByText("94 of 100 exports left this period").waitFor();
  });

  it("10 minutes of FLAC through the OPFS download path (no save picker): the CLI's samples to the last frame", async () => {
    const cli = cliWav(16, 600);
    await page.evaluate(() => Object.defineProperty(window, "showSaveFilePicker", { value: undefined, configurable: true }));
    await loadState(page, STATE, 600);
    await page.getByLabel("Export format", { exact: true }).selectOption({ label: "FLAC 16-bit (lossless)" });
    const download = page.waitForEvent("download", { timeout: 120_000 });
    await page.getByRole("button", { name: "Export FLAC" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^swizard-audio-.*\.flac$/);
    const path = join(dir, "ten-minutes.flac");
    await file.saveAs(path);
    const p = probe(path);
    expect(p.streams[0]).toMatchObject({ codec_name: "flac", sample_rate: "48000", channels: 2, bits_per_raw_sample: "16" });
    expect(Number(p.format.duration)).toBe(600);
    // Many muxer chunks (1 MiB each) and a header rewritten at the end: every sample in place.
    expect(decode(path, "s16le").equals(decode(await cli, "s16le"))).toBe(true);
    const panel = page.getByRole("region", { name: "Export report" });
    await expect.poll(() => panel.locator(".export-report-summary").textContent(), { timeout: 30_000 }).toMatch(/Verified: (\d+) of \1 checks passed\.$/);
    expect(await panel.locator(".export-report-details li").allTextContents()).toContain("PASS Duration in the file: 10:00 (600.000 s), rendered 600.000 s (to the frame)");
  }, 180_000);
});
