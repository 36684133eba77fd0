// The soundtrack as users bring it: WAV, FLAC, OGG and MP3 files (encoded here by ffmpeg from one
// known tone) decode to the same tone at the engine's rate, play at their mix level beside the
// voices, loop without a click, and honour SBaGen's looping tag.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBinary } from "../../../../../api/platform/binaries";
import type { SoundtrackAudio } from "../../../../../dsp/host/model/soundtrack";
import type { Voice } from "../../../../../dsp/host/model/voices";
import { loadSoundtrack, soundtrackFormat } from "../../../../../dsp/host/soundtrack/decode";
import { findLooperTag, parseLooperSpec } from "../../../../../dsp/host/soundtrack/looper";
import { FS, maxStep, peakFrequency, rms } from "../../../dsp/assembly/helpers";
import { playVoices } from "../play-voices";

/** A 16-bit mono WAV of a sine: `freq` Hz at `amp` of full scale, `seconds` long at `rate`. */
function sineWav(freq: number, amp: number, seconds: number, rate: number): Uint8Array {
  const n = Math.round(seconds * rate);
  const b = Buffer.alloc(44 + n * 2);
  b.write("RIFF", 0); b.writeUInt32LE(36 + n * 2, 4); b.write("WAVE", 8);
  b.write("fmt ", 12); b.writeUInt32LE(16, 16); b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24); b.writeUInt32LE(rate * 2, 28); b.writeUInt16LE(2, 32); b.writeUInt16LE(16, 34);
  b.write("data", 36); b.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(amp * 32767 * Math.sin((2 * Math.PI * freq * i) / rate)), 44 + i * 2);
  return new Uint8Array(b);
}

const play = (voices: Voice[], soundtrack: SoundtrackAudio | null, seconds: number, from = 0) => playVoices(voices, seconds, { from, soundtrack });

let dir = "";
const files: Record<string, Uint8Array> = {};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "soundtrack-"));
  const wav = sineWav(1000, 0.5, 3, 44100);
  writeFileSync(join(dir, "tone.wav"), wav);
  files.wav = wav;
  const ffmpeg = requireBinary("ffmpeg").path;
  const encode = (ext: string, args: string[]) => {
    execFileSync(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y", "-i", join(dir, "tone.wav"), ...args, join(dir, `tone.${ext}`)]);
    files[ext] = new Uint8Array(readFileSync(join(dir, `tone.${ext}`)));
  };
  encode("flac", ["-metadata", "SBAGEN_LOOPER=s99 f0.25 d0.5-2.5"]);
  encode("ogg", ["-c:a", "libvorbis", "-q:a", "5", "-metadata", "SBAGEN_LOOPER=f0.5 #1 f0.1"]);
  encode("mp3", ["-c:a", "libmp3lame", "-b:a", "192k", "-metadata", "SBAGEN_LOOPER=f0.3"]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("soundtrack files", () => {
  it.each(["wav", "flac", "ogg", "mp3"])("a %s file decodes to the tone it holds, at 48 kHz, in both ears", async (ext) => {
    const bytes = files[ext];
    expect(soundtrackFormat(bytes)).toBe(ext);
    const s = await loadSoundtrack(bytes, { name: `tone.${ext}`, rate: FS });
    expect(s.rate).toBe(FS);
    // 3 s at 44.1 kHz is 144,000 frames at 48 kHz (MP3 adds its encoder's padding: within 100 ms).
    expect(Math.abs(s.frames - 3 * FS)).toBeLessThan(ext === "mp3" ? 0.1 * FS : 4);
    const left = Float32Array.from({ length: s.frames }, (_, i) => s.pcm[2 * i] / 32768);
    const right = Float32Array.from({ length: s.frames }, (_, i) => s.pcm[2 * i + 1] / 32768);
    expect(peakFrequency(left.subarray(FS / 2, FS / 2 + (1 << 16)), FS)).toBeCloseTo(1000, 0);
    // A sine of amplitude 0.5 has an RMS of 0.354 (lossy codecs within 0.3 dB).
    expect(20 * Math.log10(rms(left, FS / 2, 2 * FS) / (0.5 / Math.SQRT2))).toBeCloseTo(0, 0);
    expect(rms(right, FS / 2, 2 * FS)).toBeCloseTo(rms(left, FS / 2, 2 * FS), 3);
  });

  it("refuses what is not audio with a readable message", async () => {
    await expect(loadSoundtrack(new TextEncoder().encode("hello"), { name: "notes.txt", rate: FS })).rejects.toThrow("notes.txt is not a WAV, FLAC, OGG or MP3 file");
  });

  it("reads SBaGen's looping tag from FLAC, OGG and MP3 (the group after # when asked)", async () => {
    expect(findLooperTag(files.flac)).toBe("s99 f0.25 d0.5-2.5");
    expect(findLooperTag(files.ogg)).toBe("f0.5 #1 f0.1");
    expect(findLooperTag(files.mp3)).toBe("f0.3");
    expect(findLooperTag(files.wav)).toBeNull();
    expect(parseLooperSpec("f0.5 #1 f0.1")).toEqual({ fade: 0.5 });
    expect(parseLooperSpec("f0.5 #1 f0.1", 1)).toEqual({ fade: 0.1 });
    const flac = await loadSoundtrack(files.flac, { name: "tone.flac", rate: FS });
    expect([flac.loopStart, flac.loopEnd, flac.loopFade]).toEqual([0.5 * FS, 2.5 * FS, 0.25 * FS]);
    const wav = await loadSoundtrack(files.wav, { name: "tone.wav", rate: FS });
    expect([wav.loopStart, wav.loopEnd, wav.loopFade]).toEqual([0, wav.frames, FS]);
  });
});

describe("the soundtrack in the engine", () => {
  it("mix/50 plays the soundtrack at the level a 50 % tone plays at (SBaGen's balance), mix/100 6 dB louder", async () => {
    // A full-scale 1 kHz soundtrack at mix/50 against a 1 kHz tone voice at 50.
    const full = await loadSoundtrack(sineWav(1000, 1, 3, FS), { name: "full.wav", rate: FS });
    const mixed = play([{ kind: "mix", amp: 50 }], full, 1, 0.5);
    const tone = play([{ kind: "tone", carrier: 1000, amp: 50 }], null, 1, 0.5);
    expect(20 * Math.log10(rms(mixed.left) / rms(tone.left))).toBeCloseTo(0, 1);
    const louder = play([{ kind: "mix", amp: 100 }], full, 1, 0.5);
    expect(20 * Math.log10(rms(louder.left) / rms(mixed.left))).toBeCloseTo(6.02, 1);
    expect(peakFrequency(mixed.right, FS)).toBeCloseTo(1000, 0);
  });

  it("without the file the mix voice is silent and the other voices play", () => {
    const out = play([{ kind: "mix", amp: 80 }, { kind: "tone", carrier: 300, amp: 20 }], null, 0.5, 0.2);
    expect(peakFrequency(out.left, FS)).toBeCloseTo(300, 0);
  });

  it("loops for ever without a click: across each turn no step is larger than the sound's own", async () => {
    // 1.37 s of 440 Hz: a whole number of cycles does not fit, so a plain loop would jump.
    const s = await loadSoundtrack(sineWav(440, 0.8, 1.37, 44100), { name: "short.wav", rate: FS });
    const out = play([{ kind: "mix", amp: 100 }], s, 6);
    const own = maxStep(out.left, FS / 10, FS / 2);
    const period = s.loopEnd - s.loopStart - s.loopFade;
    for (let turn = 1; turn * period + s.loopFade + 2000 < out.left.length; turn++) {
      const seam = turn * period;
      expect(maxStep(out.left, seam - 2000, seam + s.loopFade + 2000)).toBeLessThan(own * 1.05);
    }
    // Still sounding after several turns, at the loop's level (within the cross-fade's swing).
    expect(rms(out.left, 5 * FS, 6 * FS)).toBeGreaterThan(0.5 * rms(out.left, FS / 10, FS));
  });

  it("follows the session's clock: the same frame after a seek as in one run", async () => {
    const s = await loadSoundtrack(sineWav(440, 0.8, 1.37, 44100), { name: "short.wav", rate: FS });
    const whole = play([{ kind: "mix", amp: 100 }], s, 4);
    const later = play([{ kind: "mix", amp: 100 }], s, 1, 3);
    const a = whole.left.subarray(3 * FS, 4 * FS);
    expect(Math.max(...a.map((v, i) => Math.abs(v - later.left[i])))).toBeLessThan(1e-6);
  });
});
