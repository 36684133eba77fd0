// `npm run render` (scripts/render.ts) as a real child process: a 60 s render has the right
// length, header and spectrum; --config (share link) and --preset give the same bytes; --report
// writes the verification (text or JSON) without changing the WAV; bad
// presets, a missing directory and a full disk fail with a clear message, a non-zero exit code
// and no partial file left behind.

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportPlan } from "../../../dsp/host/export/render";
import { parseWavHeader } from "../../../dsp/host/export/wav";
import { FS, db, levelAt, magnitude, peakFrequency, singleTone } from "../dsp/assembly/helpers";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
let dir: string;
let presetFile: string;
const TONE = 1234.5;
const state = singleTone(TONE, "sine");

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function render(args: string[], shell?: string): Promise<Result> {
  const [cmd, argv] = shell
    ? ["bash", ["-c", `${shell}; exec "$0" scripts/render.ts "$@"`, TSX, ...args]]
    : [TSX, ["scripts/render.ts", ...args]];
  return new Promise((resolve) => {
    execFile(cmd, argv as string[], { cwd: REPO, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "render-cli-"));
  presetFile = join(dir, "tone.json");
  writeFileSync(presetFile, JSON.stringify(state));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run render", () => {
  it("renders 60 s with the right length, header and spectrum", async () => {
    const out = join(dir, "sixty.wav");
    const r = await render(["--preset", presetFile, "--duration", "00:01:00", "--out", out, "--stats"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Wrote .*sixty\.wav: 11,520,044 bytes/);
    const stats = JSON.parse(r.stdout.split("RENDER_STATS ")[1]);
    expect(stats.maxRssMB).toBeLessThan(150);

    const bytes = readFileSync(out);
    expect(bytes.byteLength).toBe(exportPlan(60).totalBytes);
    const info = parseWavHeader(bytes);
    expect(info).toMatchObject({ container: "RIFF", sampleRate: 48000, channels: 2, bitsPerSample: 16, frames: 60 * FS });

    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset + info.dataOffset, info.frames * 2);
    // Three windows (start, middle, near the end): the peak stays on the channel's frequency.
    for (const at of [1, 30, 58]) {
      const left = Float32Array.from({ length: 65536 }, (_, i) => pcm[2 * (at * FS + i)] / 32767);
      expect(Math.abs(peakFrequency(left) - TONE)).toBeLessThan(0.5);
    }
    const mid = Float32Array.from({ length: 65536 }, (_, i) => pcm[2 * (30 * FS + i) + 1] / 32767);
    const mag = magnitude(mid, 65536);
    // Pure tone: everything away from it (and its nonexistent harmonics) is 80 dB down or more.
    expect(db(levelAt(mag, TONE, FS, 65536)) - db(levelAt(mag, 3 * TONE, FS, 65536, 20))).toBeGreaterThan(80);
    expect(readdirSync(dir).filter((f) => f.endsWith(".part"))).toEqual([]);
  });

  it("gives the same bytes from a share link's base64 config (URL-safe or standard)", async () => {
    const fromPreset = join(dir, "p.wav");
    const fromUrlSafe = join(dir, "c1.wav");
    const fromStd = join(dir, "c2.wav");
    const json = JSON.stringify(state);
    const std = Buffer.from(json).toString("base64");
    const urlSafe = std.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const rs = await Promise.all([
      render(["--preset", presetFile, "--duration", "3", "--out", fromPreset]),
      render(["--config", urlSafe, "--duration", "0:03", "--out", fromUrlSafe]),
      render(["--config", std, "--duration", "00:00:03", "--out", fromStd]),
    ]);
    for (const r of rs) expect(r.code).toBe(0);
    expect(statSync(fromPreset).size).toBe(exportPlan(3).totalBytes);
    expect(sha(fromUrlSafe)).toBe(sha(fromPreset));
    expect(sha(fromStd)).toBe(sha(fromPreset));
  });

  it("rejects a bad preset with zod's message and exit code 2", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ ...state, channels: state.channels.map((c) => ({ ...c, frequency: 99999 })) }));
    const out = join(dir, "bad.wav");
    const r = await render(["--preset", bad, "--duration", "10", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Invalid preset in ${bad}`);
    expect(r.stderr).toMatch(/expected number to be <=20000/);
    expect(r.stderr).toContain("channels[0].frequency");
    expect(readdirSync(dir)).not.toContain("bad.wav");

    const notJson = join(dir, "not.json");
    writeFileSync(notJson, "{ channels: ");
    const r2 = await render(["--preset", notJson, "--out", out]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain("not JSON");
  });

  it("rejects a state with no sounding channel, a bad duration and a bad config", async () => {
    const silent = join(dir, "silent.json");
    writeFileSync(silent, JSON.stringify({ ...state, channels: state.channels.map((c) => ({ ...c, enabled: false })) }));
    const out = join(dir, "x.wav");
    const [a, b, c] = await Promise.all([
      render(["--preset", silent, "--out", out]),
      render(["--preset", presetFile, "--duration", "12:00:01", "--out", out]),
      render(["--config", "not base64!", "--out", out]),
    ]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain("Please enable at least one frequency channel before exporting.");
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("at most 12:00:00");
    expect(c.code).toBe(2);
    expect(c.stderr).toContain("Invalid --config");
  });

  it("fails clearly for a missing output directory", async () => {
    const r = await render(["--preset", presetFile, "--duration", "5", "--out", join(dir, "nope", "x.wav")]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`Output directory does not exist: ${join(dir, "nope")}`);
  });

  it("--report writes the verification as text or JSON and prints its summary", async () => {
    const out = join(dir, "report.wav");
    const txt = join(dir, "report.txt");
    const json = join(dir, "report.json");
    const [a, b] = await Promise.all([
      render(["--preset", presetFile, "--duration", "8", "--out", out, "--report", txt]),
      render(["--preset", presetFile, "--duration", "8", "--out", join(dir, "report2.wav"), "--report", json]),
    ]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    // Three windows of one tone each, and the clipping check.
    expect(a.stdout).toContain(`Report ${txt}: Verified: 4 of 4 checks passed.`);
    const text = readFileSync(txt, "utf8");
    expect(text).toMatch(/^Export report: Verified: 4 of 4 checks passed\./);
    expect(text).toContain("PASS Clipping: 0 samples at or beyond full scale");
    expect(text.match(/PASS Channel 1: expected 1234\.500 Hz, measured 1234\.5\d\d Hz/g)).toHaveLength(3);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.windows.map((w: { label: string }) => w.label)).toEqual(["start", "middle", "end"]);
    for (const w of report.windows) expect(Math.abs(w.checks[0].measuredHz - TONE)).toBeLessThan(0.01);
    expect(report).toMatchObject({ duration: 8, frames: 8 * FS, clippedSamples: 0, pass: true });
    // The WAV is the same with or without the report.
    const plain = join(dir, "plain.wav");
    expect((await render(["--preset", presetFile, "--duration", "8", "--out", plain])).code).toBe(0);
    expect(sha(out)).toBe(sha(plain));

    const bad = await render(["--preset", presetFile, "--duration", "8", "--out", out, "--report", join(dir, "nope", "r.txt")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`Report directory does not exist: ${join(dir, "nope")}`);
  });

  it("fails clearly on a full disk and removes the partial file", async () => {
    const full = await render(["--preset", presetFile, "--duration", "5", "--out", "/dev/full"]);
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/render: disk full: ENOSPC/);

    // A file-size limit (ulimit -f, 512 kB) makes the write fail midway, like a disk filling up.
    const sub = mkdtempSync(join(dir, "limited-"));
    const out = join(sub, "big.wav");
    const r = await render(["--preset", presetFile, "--duration", "30", "--out", out], "ulimit -f 512");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/render: disk full: .*The partial file was removed\./);
    expect(readdirSync(sub)).toEqual([]);
  });
});
