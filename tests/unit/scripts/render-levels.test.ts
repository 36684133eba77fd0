// `npm run render` with the listening levels: by default the studio's levels (2 s
// fade-in, limiter), the same bytes as the export worker's WavRenderer given DEFAULT_LEVELS;
// --fade-in and --no-limiter change them; --normalize writes a file that measures -16 LUFS; a bad
// --fade-in is a usage error (exit 2) naming the range.

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WavRenderer, type ExportOptions } from "../../../dsp/host/export/render";
import { DEFAULT_LEVELS, NORMALISED_LUFS } from "../../../dsp/host/schema/levels";
import { LoudnessMeter } from "../../../dsp/host/analysis/loudness";
import { createNodeEngine } from "../../../dsp/host/node";
import { parseWavHeader } from "../../../dsp/host/export/wav";
import { singleTone } from "../dsp/assembly/helpers";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
const state = { ...singleTone(528, "triangle"), duration: 8 };
let dir: string;
let preset: string;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/render.ts", "--quiet", "--preset", preset, ...args], { cwd: REPO }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function expected(options: ExportOptions): Buffer {
  const r = new WavRenderer(createNodeEngine(48000), state, state.duration, options);
  const parts: Buffer[] = [];
  for (const chunk of r.chunks(1 << 20, 1)) parts.push(Buffer.from(chunk)); // copied: the buffer is reused
  return Buffer.concat(parts);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "render-levels-"));
  preset = join(dir, "preset.json");
  writeFileSync(preset, JSON.stringify(state));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("render CLI: listening levels", () => {
  it("uses the studio's default levels: the export worker's bytes with DEFAULT_LEVELS", async () => {
    const out = join(dir, "default.wav");
    expect((await cli(["--out", out])).code).toBe(0);
    expect(readFileSync(out).equals(expected({ levels: DEFAULT_LEVELS }))).toBe(true);
  });

  it("--fade-in and --no-limiter change them", async () => {
    const out = join(dir, "custom.wav");
    expect((await cli(["--out", out, "--fade-in", "0.5", "--no-limiter"])).code).toBe(0);
    const file = readFileSync(out);
    expect(file.equals(expected({ levels: { ...DEFAULT_LEVELS, fadeIn: 0.5, limiter: false } }))).toBe(true);
    expect(file.equals(expected({ levels: DEFAULT_LEVELS }))).toBe(false);
  });

  it(`--normalize writes ${NORMALISED_LUFS} LUFS and says so`, async () => {
    const out = join(dir, "loud.wav");
    const r = await cli(["--out", out, "--normalize"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Loudness: -\d+\.\d LUFS measured, \+\d+\.\d\d dB applied: -16\.0 LUFS \(1 measuring pass\)\./);
    const file = readFileSync(out);
    const info = parseWavHeader(file);
    const view = new DataView(file.buffer, file.byteOffset + info.dataOffset, info.dataBytes);
    const left = new Float32Array(info.frames);
    const right = new Float32Array(info.frames);
    for (let i = 0; i < info.frames; i++) {
      left[i] = view.getInt16(i * 4, true) / 32768;
      right[i] = view.getInt16(i * 4 + 2, true) / 32768;
    }
    const meter = new LoudnessMeter(48000, 2);
    meter.push(left, right);
    expect(Math.abs(meter.integrated() - NORMALISED_LUFS)).toBeLessThan(0.1);
  });

  it("refuses a bad --fade-in with exit code 2", async () => {
    const r = await cli(["--out", join(dir, "x.wav"), "--fade-in", "31"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("render: Invalid --fade-in '31': give seconds from 0 to 30.");
  });
});
