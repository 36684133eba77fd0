// `npm run render -- --sbg` (scripts/render.ts) as a real child process: a schedule, read in voices
// (readSbgVoices), renders to a WAV whose spectrum follows it at chosen times (300 Hz held, the slide half way, 600 Hz), its
// length comes from the schedule unless --duration is given, errors print with line numbers and
// exit 2, warnings go to stderr; --preset accepts a timeline and rejects a bad one.

import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBinary } from "../../../api/platform/binaries";
import { parseWavHeader } from "../../../dsp/host/export/wav";
import { FS, peakFrequency, rms, singleTone } from "../dsp/assembly/helpers";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = join(REPO, "node_modules", ".bin", "tsx");
const FIXTURES = join(REPO, "tests", "fixtures", "sbg");
let dir: string;

function render(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/render.ts", ...args], { cwd: REPO, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The left channel's strongest frequency over one second from `at` seconds. */
function peakAt(pcm: Int16Array, at: number): number {
  const left = Float32Array.from({ length: FS }, (_, i) => pcm[2 * (Math.round(at * FS) + i)] / 32767);
  return peakFrequency(left, FS, 1 << 17);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "render-sbg-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run render -- --sbg", () => {
  it("renders a schedule whose spectrum follows it: 300 Hz, the slide half way (450 Hz), 600 Hz", async () => {
    const out = join(dir, "sweep.wav");
    const r = await render(["--sbg", join(FIXTURES, "cli-sweep.sbg"), "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const bytes = readFileSync(out);
    const info = parseWavHeader(bytes);
    expect(info.frames).toBe(30 * FS); // the schedule's own length: -SE, last line at 0:30
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset + info.dataOffset, info.frames * 2);
    expect(Math.abs(peakAt(pcm, 4.5) - 300)).toBeLessThan(0.5);
    // 14.5-15.5 s of a 30 Hz/s slide: centred on 450 Hz.
    expect(Math.abs(peakAt(pcm, 14.5) - 450)).toBeLessThan(3);
    expect(Math.abs(peakAt(pcm, 24.5) - 600)).toBeLessThan(0.5);
  });

  it("takes --duration over the schedule's length", async () => {
    const out = join(dir, "short.wav");
    const r = await render(["--sbg", join(FIXTURES, "cli-sweep.sbg"), "--duration", "5", "--out", out]);
    expect(r.code).toBe(0);
    expect(parseWavHeader(readFileSync(out)).frames).toBe(5 * FS);
  });

  it("prints errors with line numbers and exits 2; prints warnings to stderr and renders", async () => {
    const bad = join(FIXTURES, "errors.sbg");
    const r = await render(["--sbg", bad, "--out", join(dir, "bad.wav")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`render: Invalid schedule ${bad}:`);
    expect(r.stderr).toContain(`${bad}:12: 'nosuch' is not defined above`);
    expect(r.stderr).toContain(`${bad}:13: time 'NOW+00:61': minutes and seconds must be 0-59`);

    const approx = join(FIXTURES, "approximations.sbg");
    const w = await render(["--sbg", approx, "--duration", "2", "--out", join(dir, "approx.wav")]);
    expect(w.code).toBe(0);
    expect(w.stderr).toContain(`render: warning: ${approx}: mix/ plays the soundtrack, but no -m names its file: the mix voices are silent`);
    expect(w.stderr.split("\n").filter((l) => l.startsWith("render: warning:"))).toHaveLength(4);

    const missing = await render(["--sbg", join(dir, "nope.sbg"), "--out", join(dir, "x.wav")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Cannot read schedule");
  });

  it("--preset takes a timeline (checked by the preset schema) and rejects a bad one", async () => {
    const state = { ...singleTone(300), timeline: { steps: [{ at: 1, ramp: "linear", channels: [{ id: 1, frequency: 600 }] }] } };
    const good = join(dir, "timeline.json");
    writeFileSync(good, JSON.stringify(state));
    const r = await render(["--preset", good, "--duration", "2", "--out", join(dir, "t.wav")]);
    expect(r.code).toBe(0);

    const bad = join(dir, "bad-timeline.json");
    writeFileSync(bad, JSON.stringify({ ...state, timeline: { steps: [{ at: "soon" }] } }));
    const b = await render(["--preset", bad, "--duration", "2", "--out", join(dir, "b.wav")]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(`Invalid preset in ${bad}: timeline.steps[0].at must be a number`);

    const both = await render(["--preset", good, "--sbg", join(FIXTURES, "cli-sweep.sbg"), "--out", join(dir, "x.wav")]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("Give exactly one of --preset, --config or --sbg.");
  });

  it("plays the soundtrack the schedule names (-m, found beside it) or --mix, and warns when it is missing", async () => {
    // A 1 kHz soundtrack (FLAC, made by ffmpeg) under a 300 Hz tone.
    execFileSync(requireBinary("ffmpeg").path, ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=2", join(dir, "hum.flac")]);
    const schedule = join(dir, "with-mix.sbg");
    writeFileSync(schedule, "-SE\n-m hum.flac\nts: mix/60 300/20\nNOW ts\nNOW+00:00:04 ts\n");
    const leftOf = (file: string) => {
      const bytes = readFileSync(file);
      const info = parseWavHeader(bytes);
      const pcm = new Int16Array(bytes.buffer, bytes.byteOffset + info.dataOffset, info.frames * 2);
      return Float32Array.from({ length: info.frames }, (_, i) => pcm[2 * i] / 32767);
    };
    const r = await render(["--sbg", schedule, "--out", join(dir, "mix.wav")]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const left = leftOf(join(dir, "mix.wav"));
    // Both sound, and the soundtrack goes on past its own 2 s (it loops).
    expect(peakFrequency(left.subarray(FS, 2 * FS), FS, 1 << 17, 500, 2000)).toBeCloseTo(1000, 0);
    expect(peakFrequency(left.subarray(FS, 2 * FS), FS, 1 << 17, 100, 500)).toBeCloseTo(300, 0);
    expect(peakFrequency(left.subarray(3 * FS, 4 * FS), FS, 1 << 17, 500, 2000)).toBeCloseTo(1000, 0);

    // Without the file: a warning naming --mix, and only the tone.
    const alone = join(dir, "elsewhere");
    execFileSync("mkdir", ["-p", alone]);
    writeFileSync(join(alone, "with-mix.sbg"), readFileSync(schedule));
    const w = await render(["--sbg", join(alone, "with-mix.sbg"), "--out", join(dir, "nomix.wav")]);
    expect(w.code).toBe(0);
    expect(w.stderr).toContain(`render: warning: the soundtrack hum.flac is not beside ${join(alone, "with-mix.sbg")} (give it with --mix FILE): the mix voices are silent`);
    const quiet = leftOf(join(dir, "nomix.wav"));
    expect(rms(quiet, FS, 2 * FS)).toBeLessThan(rms(left, FS, 2 * FS));

    // --mix gives it from anywhere: the same bytes as beside the schedule.
    const m = await render(["--sbg", join(alone, "with-mix.sbg"), "--mix", join(dir, "hum.flac"), "--out", join(dir, "given.wav")]);
    expect(m.code).toBe(0);
    expect(readFileSync(join(dir, "given.wav")).equals(readFileSync(join(dir, "mix.wav")))).toBe(true);

    const bad = await render(["--sbg", schedule, "--mix", schedule, "--out", join(dir, "bad.wav")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("render: Invalid soundtrack: with-mix.sbg is not a WAV, FLAC, OGG or MP3 file");
  });
});
