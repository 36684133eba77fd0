// `npm run render -- --recording ID=FILE`: the CLI renders the voice recordings a preset places,
// from the WAV files the API stores, at their level (the same clip, engine and bytes as the
// studio's export); a placed recording without its file is silent with a warning; a file that is
// not a 16-bit 48 kHz WAV stops the render.

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monoWav } from "../../../dsp/host/export/recording-wav";
import { parseWavHeader } from "../../../dsp/host/export/wav";
import { FS, singleTone } from "../dsp/assembly/helpers";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
let dir: string;

function render(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/render.ts", ...args], { cwd: REPO, maxBuffer: 1 << 20 }, (err, _stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}

/** The amplitude of `hz` in the left channel over [from, from + seconds). */
function amplitude(file: string, hz: number, from: number, seconds: number): number {
  const bytes = new Uint8Array(readFileSync(file));
  const info = parseWavHeader(bytes);
  const v = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset);
  let re = 0, im = 0;
  const n = Math.round(seconds * FS);
  for (let i = 0; i < n; i++) {
    const x = v.getInt16((Math.round(from * FS) + i) * 4, true) / 32768;
    re += x * Math.cos((2 * Math.PI * hz * i) / FS);
    im += x * Math.sin((2 * Math.PI * hz * i) / FS);
  }
  return (2 * Math.hypot(re, im)) / n;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "render-rec-"));
  const state = { ...singleTone(440), recordings: [{ id: "r1", name: "Words", trimStart: 0, trimEnd: 0, gainDb: -6, at: 1, every: 0, loop: false, shared: true }] };
  writeFileSync(join(dir, "preset.json"), JSON.stringify(state));
  const pcm = Int16Array.from({ length: FS }, (_, i) => Math.round(Math.sin((2 * Math.PI * 3000 * i) / FS) * 16384));
  writeFileSync(join(dir, "r1.wav"), monoWav(pcm));
  writeFileSync(join(dir, "bad.wav"), "not a wav");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run render -- --recording", () => {
  it("renders a placed recording from its file at its time and level", async () => {
    const out = join(dir, "with.wav");
    const r = await render(["--preset", join(dir, "preset.json"), "--recording", `r1=${join(dir, "r1.wav")}`, "--duration", "3", "--fade-in", "0", "--out", out, "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
    // 16384/32768 = 0.5 at -6 dB: 0.25.
    expect(amplitude(out, 3000, 1.1, 0.8)).toBeCloseTo(0.25, 2);
    expect(amplitude(out, 3000, 0.1, 0.8)).toBeLessThan(0.001);
  });

  it("warns and leaves a recording without its file silent; refuses a file that is not one", async () => {
    const out = join(dir, "without.wav");
    const r = await render(["--preset", join(dir, "preset.json"), "--duration", "2", "--out", out, "--quiet"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("no --recording r1=FILE for the recording Words");
    expect(amplitude(out, 3000, 1.1, 0.8)).toBeLessThan(0.001);
    const bad = await render(["--preset", join(dir, "preset.json"), "--recording", `r1=${join(dir, "bad.wav")}`, "--duration", "2", "--out", join(dir, "bad-out.wav"), "--quiet"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("Invalid recording");
  });
});
