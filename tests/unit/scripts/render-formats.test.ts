// `npm run render` writing every export format, read back by an independent decoder (ffprobe and
// ffmpeg): the container, codec, depth and duration; FLAC's samples bit-identical to the WAV of the
// same render (16-bit and 24-bit); MP3 at 320 kbps and Opus at 160 kbps keep a chord's tones within
// 0.05 Hz and 0.5 dB of the WAV, with no spur above -60 dB below 16 kHz; 24-bit WAV's header and a
// dither floor at the 24-bit level; an unknown extension or a flag for another format is a usage
// error (exit 2) with its message and no file.

import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBinary } from "../../../api/platform/binaries";
import { parseWavHeader } from "../../../dsp/host/export/wav";
import { defaultAudioState, type AudioState } from "../../../dsp/host/schema/state";
import { FS, db, levelAt, magnitude, peakFrequency } from "../dsp/assembly/helpers";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
const TONES = [220.25, 1234.5, 5000.75];
const SECONDS = 20;
let dir: string;
let preset: string;
let ffmpeg: string;
let ffprobe: string;

function render(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/render.ts", ...args], { cwd: REPO, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Renders the chord to `name` in the test folder with `flags`; the file's path. */
async function renderTo(name: string, ...flags: string[]): Promise<string> {
  const out = join(dir, name);
  const r = await render(["--preset", preset, "--duration", String(SECONDS), "--fade-in", "0", "--no-limiter", "--out", out, ...flags]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return out;
}

function probe(file: string): { codec: string; sampleRate: number; channels: number; bits: string; duration: number } {
  const json = JSON.parse(
    execFileSync(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels,bits_per_raw_sample:format=duration,format_name", "-of", "json", file], { encoding: "utf8" }),
  );
  const s = json.streams[0];
  return { codec: s.codec_name, sampleRate: Number(s.sample_rate), channels: s.channels, bits: s.bits_per_raw_sample ?? "", duration: Number(json.format.duration) };
}

/** The file's samples as ffmpeg decodes them, in `fmt` (s16le, s32le or f32le). */
function decode(file: string, fmt: "s16le" | "s32le" | "f32le"): Buffer {
  return execFileSync(ffmpeg, ["-v", "error", "-i", file, "-f", fmt, "-"], { maxBuffer: 1 << 30 });
}

/** The left ear, as floats, from ffmpeg's f32 decode. */
function leftOf(file: string): Float32Array {
  const b = decode(file, "f32le");
  const all = new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  return Float32Array.from({ length: all.length / 2 }, (_, i) => all[2 * i]);
}

const SIZE = 1 << 18; // 5.5 s at 48 kHz: 0.18 Hz bins
/** Each tone's frequency and level (dB), the strongest other bin below 16 kHz relative to the
 *  loudest tone (a spur: more than 50 Hz from every tone, past the skirt Opus's coarse low bands
 *  put around a tone), and the median bin (the noise floor), in a window 10 s in (past any
 *  encoder delay). */
function analyse(left: Float32Array): { freqs: number[]; levels: number[]; spur: number; floor: number } {
  const from = 10 * FS;
  const win = left.subarray(from, from + SIZE);
  const mag = magnitude(win, SIZE);
  const freqs = TONES.map((f) => peakFrequency(win, FS, SIZE, f - 20, f + 20));
  const levels = TONES.map((f) => db(levelAt(mag, f, FS, SIZE)));
  const top = Math.max(...levels);
  let spur = -Infinity;
  const bins: number[] = [];
  for (let k = Math.ceil((20 * SIZE) / FS); k < (16000 * SIZE) / FS; k++) {
    const f = (k * FS) / SIZE;
    if (TONES.some((t) => Math.abs(f - t) < 50)) continue;
    spur = Math.max(spur, db(mag[k]) - top);
    bins.push(db(mag[k]) - top);
  }
  bins.sort((a, b) => a - b);
  return { freqs, levels, spur, floor: bins[bins.length >> 1] };
}

beforeAll(() => {
  ffmpeg = requireBinary("ffmpeg").path;
  ffprobe = requireBinary("ffprobe").path;
  dir = mkdtempSync(join(tmpdir(), "render-formats-"));
  const state: AudioState = defaultAudioState();
  state.channels = state.channels.map((c, i) => (i < TONES.length ? { ...c, enabled: true, waveform: "sine", frequency: TONES[i] } : { ...c, enabled: false }));
  state.effects = Object.fromEntries(Object.entries(state.effects).map(([id, e]) => [id, { ...e, enabled: false }]));
  preset = join(dir, "chord.json");
  writeFileSync(preset, JSON.stringify(state));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run render: formats", () => {
  let wav16: string;
  let wav24: string;

  it("writes a 24-bit WAV: its header, its length, the same tones as the 16-bit one, a quieter floor", async () => {
    wav16 = await renderTo("chord.wav");
    wav24 = await renderTo("chord-24.wav", "--bits", "24");
    const bytes = readFileSync(wav24);
    const info = parseWavHeader(bytes);
    expect(info).toMatchObject({ container: "RIFF", sampleRate: 48000, channels: 2, bitsPerSample: 24, frames: SECONDS * FS });
    expect(bytes.byteLength).toBe(info.dataOffset + SECONDS * FS * 6);
    expect(probe(wav24)).toMatchObject({ codec: "pcm_s24le", sampleRate: 48000, channels: 2, duration: SECONDS });
    const a16 = analyse(leftOf(wav16));
    const a24 = analyse(leftOf(wav24));
    for (let i = 0; i < TONES.length; i++) {
      expect(Math.abs(a24.freqs[i] - TONES[i])).toBeLessThan(0.01);
      expect(Math.abs(a24.levels[i] - a16.levels[i])).toBeLessThan(0.01);
    }
    // The dither's floor: 16-bit's median bin about 111 dB below the tones in this window,
    // 24-bit's about 47 dB lower (8 bits, 48 dB).
    expect(a16.floor).toBeLessThan(-100);
    expect(a24.floor).toBeLessThan(a16.floor - 40);
  });

  it("FLAC 16-bit and 24-bit decode bit-identical to the WAV of the same render", async () => {
    const flac16 = await renderTo("chord.flac");
    const flac24 = await renderTo("chord-24.flac", "--bits", "24", "--flac-level", "8");
    expect(probe(flac16)).toMatchObject({ codec: "flac", sampleRate: 48000, channels: 2, bits: "16", duration: SECONDS });
    expect(probe(flac24)).toMatchObject({ codec: "flac", sampleRate: 48000, channels: 2, bits: "24", duration: SECONDS });
    expect(decode(flac16, "s16le").equals(decode(wav16, "s16le"))).toBe(true);
    expect(decode(flac24, "s32le").equals(decode(wav24, "s32le"))).toBe(true);
    // Lossless and smaller.
    expect(readFileSync(flac16).byteLength).toBeLessThan(readFileSync(wav16).byteLength * 0.8);
  });

  // The spur limit: -60 dB for MP3 at 320 kbps (measured -98 dB) and Opus at 192 kbps (-62 dB).
  // Opus at 160 kbps holds -55 dB only: its lowest band (0-200 Hz) carries the 220 Hz tone's
  // leakage as noise at 25 and 75 Hz, measured -56.6 dB (docs/cli.md says so).
  for (const [name, flags, codec, limit] of [
    ["chord.mp3", ["--mp3-kbps", "320"], "mp3", -60],
    ["chord.opus", ["--opus-kbps", "160"], "opus", -55],
    ["chord-192.opus", ["--opus-kbps", "192"], "opus", -60],
  ] as const) {
    it(`${name} keeps every tone within 0.05 Hz and 0.5 dB, with no spur above ${limit} dB below 16 kHz`, async () => {
      const file = await renderTo(name, ...flags);
      const p = probe(file);
      expect(p).toMatchObject({ codec, sampleRate: 48000, channels: 2 });
      expect(Math.abs(p.duration - SECONDS)).toBeLessThan(0.1);
      const ref = analyse(leftOf(wav16));
      const got = analyse(leftOf(file));
      for (let i = 0; i < TONES.length; i++) {
        expect(Math.abs(got.freqs[i] - ref.freqs[i])).toBeLessThan(0.05);
        expect(Math.abs(got.levels[i] - ref.levels[i])).toBeLessThan(0.5);
      }
      expect(got.spur).toBeLessThan(limit);
    });
  }

  it("--report decodes a FLAC and an MP3 back with ffmpeg: the FLAC's samples within the dither, both files' tones unchanged", async () => {
    for (const [name, flags, lossless] of [["checked.flac", [], true], ["checked.mp3", ["--mp3-kbps", "192"], false]] as const) {
      const report = join(dir, `${name}.json`);
      await renderTo(name, "--report", report, ...flags);
      const r = JSON.parse(readFileSync(report, "utf8"));
      expect(r.pass, name).toBe(true);
      expect(r.decoded).toMatchObject({ decodedBack: true, decoder: "ffmpeg", lossless, duration: "pass", status: "pass" });
      if (lossless) expect(r.decoded.maxDifferenceLsb).toBeLessThanOrEqual(1.5);
      // Every tone of the chord in each of the report's windows.
      expect(r.decoded.tones).toHaveLength(TONES.length * r.windows.length);
      for (const t of r.decoded.tones) expect(Math.abs(t.decodedHz - t.renderedHz)).toBeLessThan(0.05);
    }
  });

  it("writes a VBR MP3 and says which in its summary line", async () => {
    const out = join(dir, "vbr.mp3");
    const r = await render(["--preset", preset, "--duration", "5", "--out", out, "--mp3-vbr", "2"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Wrote .*vbr\.mp3: [\d,]+ bytes \(MP3 VBR V2, 48 kHz stereo\)/);
    expect(probe(out).codec).toBe("mp3");
  });

  it("writes the studio's VBR MP3 with --encoder wasm: the same bytes every time, its length and the chord's tones", async () => {
    const outs = [join(dir, "vbr-wasm-a.mp3"), join(dir, "vbr-wasm-b.mp3")];
    for (const out of outs) {
      const r = await render(["--preset", preset, "--duration", "5", "--out", out, "--mp3-vbr", "2", "--encoder", "wasm", "--report", `${out}.json`]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\(MP3 VBR V2, 48 kHz stereo\)/);
    }
    expect(readFileSync(outs[0]).equals(readFileSync(outs[1]))).toBe(true);
    expect(probe(outs[0]).codec).toBe("mp3");
    const report = JSON.parse(readFileSync(`${outs[0]}.json`, "utf8"));
    expect(report.decoded).toMatchObject({ decodedBack: true, duration: "pass", status: "pass" });
    for (const t of report.decoded.tones) expect(Math.abs(t.decodedHz - t.renderedHz)).toBeLessThan(0.05);
  });

  it("refuses an unknown extension and a flag for another format, with exit code 2 and no file", async () => {
    const cases: [string[], string][] = [
      [["--out", join(dir, "x.ogg")], 'Unknown file type ".ogg": the export formats are .wav, .flac, .mp3 and .opus.'],
      [["--out", join(dir, "x")], `No file type in "${join(dir, "x")}": the export formats are .wav, .flac, .mp3 and .opus.`],
      [["--out", join(dir, "x.mp3"), "--bits", "24"], "--bits is for .wav and .flac files, not .mp3."],
      [["--out", join(dir, "x.wav"), "--opus-kbps", "96"], "--opus-kbps is for .opus files, not .wav."],
      [["--out", join(dir, "x.mp3"), "--mp3-kbps", "100"], "Invalid --mp3-kbps '100': give one of 128, 160, 192, 224, 256, 320."],
      [["--out", join(dir, "x.flac"), "--flac-level", "9"], "Invalid --flac-level '9': give 0 (quickest) to 8 (smallest)."],
      [["--out", join(dir, "x.wav"), "--bits", "20"], "Invalid --bits '20': give 16 or 24."],
      [["--out", join(dir, "x.opus"), "--encoder", "wasm"], "--encoder wasm is for .flac and .mp3 files, not .opus"],
      [["--out", join(dir, "x.mp3"), "--encoder", "wasm", "--mp3-quality", "2"], "--mp3-quality is for --encoder ffmpeg"],
      [["--out", join(dir, "x.flac"), "--encoder", "lame"], "Invalid --encoder 'lame': give ffmpeg or wasm."],
    ];
    for (const [args, message] of cases) {
      const r = await render(["--preset", preset, "--duration", "2", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
    }
    for (const f of ["x.ogg", "x", "x.mp3", "x.flac", "x.opus"]) expect(existsSync(join(dir, f))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith(".part"))).toEqual([]);
  });
});
