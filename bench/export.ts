// bench/export: the WAV export end to end.
// - CLI: `scripts/render.ts` renders the base patch for 12 hours (quick: 2 minutes) into a temp
//   directory as a child process: wall time, x realtime, MB/s and peak RSS (the CLI's own
//   getrusage via --stats, and /usr/bin/time -v for the whole process when present); ffprobe
//   must read the full duration back; the file is deleted afterwards.
// - Browser: the studio's export worker in headless Chromium writing a 10-minute (quick: 20 s)
//   file into OPFS, through createWritable (the save-picker path, and the OPFS fallback where the
//   browser has it) and a sync access handle (the fallback without it), with its x realtime.
// Targets (issue 4): 12-hour export < 2 minutes, peak RSS < 150 MB whatever the duration.

import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { exportPlan } from "../dsp/host/export-render";
import type { AudioState } from "../dsp/host/state";
import { launchChromium } from "../tests/e2e/browser";
import { bundleEntry } from "./chromium";
import { basePatch } from "./patches";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const TIME = "/usr/bin/time";
const FFPROBE = "/usr/bin/ffprobe";
const ORIGIN = "http://export-bench.localhost";
const TARGET_WALL_S = 120;
const TARGET_RSS_MB = 150;

export interface ExportRow {
  name: string;
  seconds: number; // audio rendered
  wallSeconds: number;
  xRealtime: number;
  mbPerSecond: number;
  peakRssMB?: number;
}

export interface ExportBenchResult {
  rows: ExportRow[];
  cli: {
    audioSeconds: number;
    bytes: number;
    /** Whole child process, startup included. */
    wallSeconds: number;
    /** The render loop alone, as the CLI measured it. */
    renderSeconds: number;
    peakRssMB: number;
    /** /usr/bin/time -v's maximum resident set size (null when not installed). */
    timeMaxRssMB: number | null;
    ffprobeDuration: number | null;
  };
  targets: { wallUnder2Min: boolean | null; rssUnder150MB: boolean };
}

interface CliStats {
  wallSeconds: number;
  audioSeconds: number;
  bytes: number;
  xRealtime: number;
  mbPerSecond: number;
  maxRssMB: number;
}

function runCli(args: string[]): Promise<{ stdout: string; stderr: string; code: number; wall: number }> {
  const useTime = existsSync(TIME);
  const node = [process.execPath, "--import", "tsx", "scripts/render.ts", ...args];
  const [cmd, ...argv] = useTime ? [TIME, "-v", ...node] : node;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ stdout, stderr, code: code ?? 1, wall: (performance.now() - t0) / 1000 }));
  });
}

async function ffprobeDuration(file: string): Promise<number | null> {
  if (!existsSync(FFPROBE)) return null;
  const { stdout } = await promisify(execFile)(FFPROBE, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]);
  return Number(stdout.trim());
}

async function cliExport(state: AudioState, seconds: number): Promise<ExportBenchResult["cli"]> {
  const dir = mkdtempSync(join(tmpdir(), "export-bench-"));
  try {
    const preset = join(dir, "base.json");
    const out = join(dir, "session.wav");
    writeFileSync(preset, JSON.stringify(state));
    const r = await runCli(["--preset", preset, "--duration", String(seconds), "--out", out, "--stats", "--quiet"]);
    if (r.code !== 0) throw new Error(`render failed (${r.code}): ${r.stderr.trim()}`);
    const statsLine = r.stdout.split("\n").find((l) => l.startsWith("RENDER_STATS "));
    if (!statsLine) throw new Error(`render printed no stats: ${r.stdout}`);
    const stats = JSON.parse(statsLine.slice("RENDER_STATS ".length)) as CliStats;
    const timeRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
    const bytes = statSync(out).size;
    if (bytes !== exportPlan(seconds).totalBytes) throw new Error(`render wrote ${bytes} bytes, expected ${exportPlan(seconds).totalBytes}`);
    return {
      audioSeconds: seconds,
      bytes,
      wallSeconds: r.wall,
      renderSeconds: stats.wallSeconds,
      peakRssMB: stats.maxRssMB,
      timeMaxRssMB: timeRss ? Number(timeRss[1]) / 1024 : null,
      ffprobeDuration: await ffprobeDuration(out),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function browserExports(state: AudioState, seconds: number): Promise<{ rows: ExportRow[]; version: string }> {
  const [worker, pageScript] = await Promise.all([bundleEntry("../web/export/export.worker.ts"), bundleEntry("./browser/export-page.ts")]);
  const wasm = readFileSync(join(REPO, "dsp/build/engine.wasm"));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.route(`${ORIGIN}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/export-worker.js") return route.fulfill({ body: worker, contentType: "text/javascript" });
      if (path === "/page.js") return route.fulfill({ body: pageScript, contentType: "text/javascript" });
      if (path === "/engine.wasm") return route.fulfill({ body: wasm, contentType: "application/wasm" });
      return route.fulfill({ body: '<!doctype html><title>export bench</title><script type="module" src="/page.js"></script>', contentType: "text/html" });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => "runExportBench" in window);
    const rows: ExportRow[] = [];
    const bytes = exportPlan(seconds).totalBytes;
    for (const [sink, label] of [["picker", "createWritable (save picker and OPFS path)"], ["opfs-sync", "OPFS sync access handle (Safari fallback)"]] as const) {
      const r = await page.evaluate(
        ({ state, seconds, sink }) =>
          (window as unknown as { runExportBench(s: unknown, n: number, k: string): Promise<{ ms: number; status: string; size: number }> })
            .runExportBench(state, seconds, sink),
        { state, seconds, sink },
      );
      if (r.status !== "done" || r.size !== bytes) throw new Error(`browser export (${sink}) gave ${r.status}, ${r.size} bytes`);
      const wall = r.ms / 1000;
      rows.push({ name: `export worker in Chromium, ${label}`, seconds, wallSeconds: wall, xRealtime: seconds / wall, mbPerSecond: bytes / 1e6 / wall });
    }
    return { rows, version: browser.version() };
  } finally {
    await browser.close();
  }
}

export async function runExport(quick: boolean): Promise<ExportBenchResult & { chromium: string }> {
  const state = basePatch();
  const cliSeconds = quick ? 120 : 43200;
  const cli = await cliExport(state, cliSeconds);
  const rows: ExportRow[] = [
    {
      name: `CLI render to disk (${quick ? "2 min" : "12 h"}, ${cli.bytes > 0xffffffff ? "RF64" : "WAV"})`,
      seconds: cliSeconds,
      wallSeconds: cli.wallSeconds,
      xRealtime: cliSeconds / cli.wallSeconds,
      mbPerSecond: cli.bytes / 1e6 / cli.wallSeconds,
      peakRssMB: cli.peakRssMB,
    },
  ];
  const browser = await browserExports(state, quick ? 20 : 600);
  rows.push(...browser.rows);
  return {
    rows,
    cli,
    targets: {
      wallUnder2Min: quick ? null : cli.wallSeconds < TARGET_WALL_S,
      rssUnder150MB: Math.max(cli.peakRssMB, cli.timeMaxRssMB ?? 0) < TARGET_RSS_MB,
    },
    chromium: browser.version,
  };
}

/** Markdown rows for bench/run.ts's report. */
export function printExport(result: ExportBenchResult): void {
  console.log("\nbench/export");
  console.log("| row | audio s | wall s | x realtime | MB/s | peak RSS MB |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of result.rows) {
    console.log(
      `| ${r.name} | ${r.seconds} | ${r.wallSeconds.toFixed(1)} | ${r.xRealtime.toFixed(0)} | ${r.mbPerSecond.toFixed(0)} | ${r.peakRssMB?.toFixed(0) ?? "-"} |`,
    );
  }
  const c = result.cli;
  console.log(
    `CLI: ${c.bytes.toLocaleString("en-US")} bytes; render loop ${c.renderSeconds.toFixed(1)} s of ${c.wallSeconds.toFixed(1)} s wall; ` +
      `peak RSS ${c.peakRssMB.toFixed(0)} MB (getrusage)` +
      (c.timeMaxRssMB !== null ? `, ${c.timeMaxRssMB.toFixed(0)} MB (/usr/bin/time)` : "") +
      `; ffprobe duration ${c.ffprobeDuration ?? "n/a"} s`,
  );
  if (result.targets.wallUnder2Min !== null) console.log(`target 12-hour export < ${TARGET_WALL_S} s: ${result.targets.wallUnder2Min ? "met" : "MISSED"}`);
  console.log(`target peak RSS < ${TARGET_RSS_MB} MB: ${result.targets.rssUnder150MB ? "met" : "MISSED"}`);
}

// Run on its own: `tsx bench/export.ts [--quick]`.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await runExport(process.argv.includes("--quick"));
  printExport(result);
  console.log("BENCH_JSON " + JSON.stringify({ export: result }));
}
