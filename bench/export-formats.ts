// bench/export-formats: every export format from the command line, end to end.
//   npx tsx bench/export-formats.ts [--quick | --long]
// For the base patch and a 16-voice binaural session (bench/patches.ts), each format is rendered
// by `scripts/render.ts` as a child process (the engine in Node, ffmpeg encoding in its own
// process): wall time, x realtime, the file's size against the WAV's, and the render's peak RSS.
// Default 1 hour of audio; --quick 2 minutes; --long adds 12 hours (flat memory is the check
// there). Targets: FLAC >= 400x realtime, MP3 >= 100x; peak RSS under 150 MB at any length.
// Printed, not timed tests; the figures of record are in docs/performance.md.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { AudioState } from "../dsp/host/schema/state";
import { basePatch, voicesPatch } from "./patches";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const TARGETS: Record<string, number> = { flac16: 400, flac24: 400, mp3: 100 };
const FORMATS = [
  { id: "wav16", file: "out.wav", flags: [] },
  { id: "wav24", file: "out24.wav", flags: ["--bits", "24"] },
  { id: "flac16", file: "out.flac", flags: [] },
  { id: "flac24", file: "out24.flac", flags: ["--bits", "24"] },
  { id: "mp3", file: "out.mp3", flags: ["--mp3-kbps", "320"] },
  { id: "opus", file: "out.opus", flags: ["--opus-kbps", "160"] },
] as const;

interface Stats {
  wallSeconds: number;
  xRealtime: number;
  bytes: number;
  maxRssMB: number;
}

function render(args: string[]): Promise<Stats> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/render.ts", ...args, "--stats", "--quiet"], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RENDER_STATS "));
      if (code !== 0 || !line) reject(new Error(`render failed (${code}): ${err.trim()}`));
      else resolve(JSON.parse(line.slice("RENDER_STATS ".length)) as Stats);
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: "boolean", default: false }, long: { type: "boolean", default: false } } });
  const lengths = values.quick ? [120] : values.long ? [3600, 43200] : [3600];
  const patches: [string, AudioState][] = [
    ["base patch", basePatch()],
    ["16 voices", voicesPatch()],
  ];
  const dir = mkdtempSync(join(tmpdir(), "export-formats-bench-"));
  const misses: string[] = [];
  try {
    console.log("patch       | length | format | wall s | x realtime | size vs WAV 16 | peak RSS MB | target");
    for (const [name, state] of patches) {
      const preset = join(dir, "preset.json");
      writeFileSync(preset, JSON.stringify(state));
      for (const seconds of lengths) {
        let wavBytes = 0;
        for (const f of FORMATS) {
          const out = join(dir, f.file);
          const s = await render(["--preset", preset, "--duration", String(seconds), "--out", out, ...f.flags]);
          const bytes = statSync(out).size;
          rmSync(out, { force: true });
          if (f.id === "wav16") wavBytes = bytes;
          const target = TARGETS[f.id];
          const met = target === undefined || s.xRealtime >= target;
          if (!met) misses.push(`${name} ${seconds} s ${f.id}: ${s.xRealtime.toFixed(0)}x < ${target}x`);
          console.log(
            [
              name.padEnd(11), `${seconds / 60} min`.padStart(6), f.id.padEnd(6), s.wallSeconds.toFixed(2).padStart(6),
              `${s.xRealtime.toFixed(0)}x`.padStart(10), `${((100 * bytes) / wavBytes).toFixed(1)} %`.padStart(14),
              s.maxRssMB.toFixed(0).padStart(11), target ? `>= ${target}x ${met ? "met" : "MISSED"}` : "",
            ].join(" | "),
          );
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(misses.length ? `targets missed: ${misses.join("; ")}` : "export formats: every target met");
}

await main();
