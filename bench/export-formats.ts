// bench/export-formats: every export format end to end, from the command line and from the
// studio's export worker in Chromium.
//   npx tsx bench/export-formats.ts [--quick | --long | --hours H] [--formats flac16,mp3,mp3vbr] [--base-only] [--no-browser]
// (after `npm run build`: the browser rows run the built export worker from dist/)
// For the base patch and a 16-voice binaural session (bench/patches.ts), each format (WAV 16 and
// 24-bit, FLAC 16 and 24-bit, MP3 320 kbps CBR and VBR V2, Opus 160 kbps) is written
// - by `scripts/render.ts` as a child process (the engine in Node, ffmpeg encoding in its own
//   process): wall time, x realtime, the file's size against the WAV's, the process's peak RSS;
// - by the studio's export worker (web/export/export.worker.ts as `npm run build` built it) in
//   headless Chromium into an OPFS file through createWritable (the save picker's sink): the
//   encoders run in their own workers as in the studio. Peak memory
//   is the whole browser's (every Chromium process, PSS from /proc) during the export, beside
//   what it used before it.
// Default 1 hour of audio; --quick 2 minutes (the base patch only); --long adds 12 hours (flat
// memory is the check there; every format in both places takes about two hours on a 2-core
// machine, so --formats, --base-only and --hours pick a part). Targets: FLAC >= 400x realtime and MP3 >= 100x in the CLI; the
// browser within 2x of the CLI for the same format; the CLI's peak RSS under 150 MB at any
// length; the browser's memory growth during an export under BROWSER_GROWTH_MB; and, the check
// that matters for 12 hours, flatness: with more than one length (--long), the longest export may
// use at most FLAT_MB more than the shortest.
// runExportFormats() returns these as bench rows (kind "export"); `npm run bench` runs it (2 minutes
// of the base patch with --quick, 1 hour of both patches in full). Printed, not timed tests; the
// figures of record are in docs/performance.md.

import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import type { ExportFormatId, ExportSettings } from "../dsp/host/export/formats";
import type { AudioState } from "../dsp/host/schema/state";
import { chromium } from "playwright-core";
import { chromiumLaunchOptions } from "../tests/e2e/browser";
import { BASE_GRAPH, offlineRender } from "./chromium";
import { exportInPage, openExportPage, runCli } from "./export";
import { REFERENCE_ID, makeRow, oacId } from "./measure";
import { basePatch, voicesPatch } from "./patches";
import { descendantsOf, memoryMB } from "./proc";
import { NodeYardstick } from "./reference";
import type { BenchResult, BenchRow } from "./schema";

/** A format case: an export format, and for MP3 its bitrate mode. */
type FormatKey = ExportFormatId | "mp3vbr";
/** The CLI's x-realtime targets (MP3's is the 320 kbps CBR file the listening check names). */
const CLI_TARGETS: Partial<Record<FormatKey, number>> = { flac16: 400, flac24: 400, mp3: 100 };
/** The browser's figure may be at most this many times slower than the CLI's. */
const BROWSER_WITHIN = 2;
const CLI_RSS_MB = 150;
/** The speed targets are for long exports: a 2-minute one is mostly process and worker start-up. */
const TARGET_MIN_SECONDS = 3600;
/** A sanity bound on the browser's growth during one export: the encoder's worker and its
 *  WebAssembly heap cost 100-160 MB in Chromium whatever the length (measured 2 min to 12 h). */
const BROWSER_GROWTH_MB = 200;
/** Flat memory: the same export at its longest length may use at most this much more than at its
 *  shortest (checked when a run measures more than one length, as --long does). */
const FLAT_MB = 50;

interface FormatCase {
  id: FormatKey;
  name: string;
  file: string;
  /** The CLI's flags for it. */
  flags: string[];
  /** The studio's settings for the same file. */
  settings: ExportSettings;
}

const FORMATS: readonly FormatCase[] = [
  { id: "wav16", name: "WAV 16-bit", file: "out.wav", flags: [], settings: { format: "wav16" } },
  { id: "wav24", name: "WAV 24-bit", file: "out24.wav", flags: ["--bits", "24"], settings: { format: "wav24" } },
  { id: "flac16", name: "FLAC 16-bit", file: "out.flac", flags: [], settings: { format: "flac16" } },
  { id: "flac24", name: "FLAC 24-bit", file: "out24.flac", flags: ["--bits", "24"], settings: { format: "flac24" } },
  { id: "mp3", name: "MP3 320 kbps", file: "out.mp3", flags: ["--mp3-kbps", "320"], settings: { format: "mp3", mp3: { kind: "cbr", kbps: 320 } } },
  { id: "mp3vbr", name: "MP3 VBR V2", file: "vbr.mp3", flags: ["--mp3-vbr", "2"], settings: { format: "mp3", mp3: { kind: "vbr", quality: 2 } } },
  { id: "opus", name: "Opus 160 kbps", file: "out.opus", flags: ["--opus-kbps", "160"], settings: { format: "opus", opusKbps: 160 } },
];

interface CliStats {
  wallSeconds: number;
  xRealtime: number;
  bytes: number;
  maxRssMB: number;
}

/** One CLI export: its stats line, with the peak RSS from /usr/bin/time where it ran (runCli). */
async function render(args: string[]): Promise<CliStats> {
  const r = await runCli([...args, "--stats", "--quiet"]);
  const line = r.stdout.split("\n").find((l) => l.startsWith("RENDER_STATS "));
  if (r.code !== 0 || !line) throw new Error(`render failed (${r.code}): ${r.stderr.trim()}`);
  const stats = JSON.parse(line.slice("RENDER_STATS ".length)) as CliStats;
  const timeRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  return timeRss ? { ...stats, maxRssMB: Number(timeRss[1]) / 1024 } : stats;
}

/** One measured export. */
export interface FormatRun {
  where: "cli" | "chromium";
  patch: string;
  seconds: number;
  format: FormatCase;
  wallSeconds: number;
  xRealtime: number;
  bytes: number;
  /** CLI: the render process's peak RSS. Chromium: the whole browser's peak during the export. */
  peakMB: number;
  /** Chromium only: the browser's memory just before the export. */
  beforeMB: number | null;
  /** The yardstick sampled beside it: the Node reference synth (CLI) or an OfflineAudioContext
   *  render of the base patch in the same page (Chromium), x realtime. */
  yardstick: number | null;
}

/** How often the browser's memory is read during an export. Reading PSS (smaps_rollup) walks each
 *  process's memory map under its lock, and every 200 ms it slowed the exports it measured (a 1 h
 *  WAV: 588x sampled every 200 ms, 900-950x unsampled); once a second costs little, and memory
 *  that stays flat needs no finer look. */
const SAMPLE_MS = 1000;

/** Samples `pids()`' memory every SAMPLE_MS while `work` runs: its result, the peak and the level
 *  just before. */
async function withPeakMemory<T>(pids: () => number[], work: () => Promise<T>): Promise<{ value: T; peakMB: number; beforeMB: number }> {
  const beforeMB = memoryMB(pids());
  let peakMB = beforeMB;
  const timer = setInterval(() => (peakMB = Math.max(peakMB, memoryMB(pids()))), SAMPLE_MS);
  try {
    const value = await work();
    peakMB = Math.max(peakMB, memoryMB(pids()));
    return { value, peakMB, beforeMB };
  } finally {
    clearInterval(timer);
  }
}

async function cliRuns(formats: readonly FormatCase[], patches: [string, AudioState][], lengths: number[], yard: NodeYardstick | null, log: (r: FormatRun) => void): Promise<FormatRun[]> {
  const dir = mkdtempSync(join(tmpdir(), "export-formats-bench-"));
  const runs: FormatRun[] = [];
  try {
    for (const [patch, state] of patches) {
      const preset = join(dir, "preset.json");
      writeFileSync(preset, JSON.stringify(state));
      for (const seconds of lengths) {
        for (const format of formats) {
          const out = join(dir, format.file);
          const yardstick = yard ? yard.sample() : null;
          const s = await render(["--preset", preset, "--duration", String(seconds), "--out", out, ...format.flags]);
          const bytes = statSync(out).size;
          rmSync(out, { force: true });
          const run: FormatRun = { where: "cli", patch, seconds, format, wallSeconds: s.wallSeconds, xRealtime: s.xRealtime, bytes, peakMB: s.maxRssMB, beforeMB: null, yardstick };
          runs.push(run);
          log(run);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return runs;
}

async function chromiumRuns(formats: readonly FormatCase[], patches: [string, AudioState][], lengths: number[], log: (r: FormatRun) => void): Promise<FormatRun[]> {
  // The browser's processes: the ones below this process that were not there before its launch
  // (bench/run.ts keeps another Chromium open meanwhile).
  // A persistent profile: an incognito context (Playwright's default) keeps OPFS in memory, so
  // the file itself would count as the browser's memory.
  const others = new Set(descendantsOf(process.pid));
  const profile = mkdtempSync(join(tmpdir(), "export-formats-profile-"));
  const browser = await chromium.launchPersistentContext(profile, { ...(await chromiumLaunchOptions()), serviceWorkers: "block" });
  const ours = () => descendantsOf(process.pid).filter((pid) => !others.has(pid));
  const runs: FormatRun[] = [];
  try {
    const page: Page = await openExportPage(browser);
    // Warm-up: the first worker start, the encoders' first compile, the first OPFS file.
    for (const format of formats) await exportInPage(page, basePatch(), 2, "picker", format.settings);
    for (const [patch, state] of patches) {
      for (const seconds of lengths) {
        for (const format of formats) {
          const oacSeconds = 10;
          const yardstick = oacSeconds / (await offlineRender(page, BASE_GRAPH, oacSeconds));
          const m = await withPeakMemory(ours, () => exportInPage(page, state, seconds, "picker", format.settings));
          const wallSeconds = m.value.ms / 1000;
          const run: FormatRun = { where: "chromium", patch, seconds, format, wallSeconds, xRealtime: seconds / wallSeconds, bytes: m.value.size, peakMB: m.peakMB, beforeMB: m.beforeMB, yardstick };
          runs.push(run);
          log(run);
        }
      }
    }
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return runs;
}

function lengthName(seconds: number): string {
  return seconds >= 3600 ? `${seconds / 3600} h` : `${seconds / 60} min`;
}

export interface ExportFormatsBench {
  runs: FormatRun[];
  rows: BenchRow[];
  checks: BenchResult["checks"];
  /** The targets missed, in words. */
  misses: string[];
}

/** The rows `npm run bench` is to record (one per place, patch, length and format, kind "export") and
 *  the targets' checks. */
function rowsOf(runs: FormatRun[]): { rows: BenchRow[]; checks: BenchResult["checks"]; misses: string[] } {
  const misses: string[] = [];
  const checks: BenchResult["checks"] = [];
  const key = (r: FormatRun) => `${r.patch}|${r.seconds}|${r.format.id}`;
  const cliOf = new Map(runs.filter((r) => r.where === "cli").map((r) => [key(r), r]));
  const wavOf = new Map(runs.filter((r) => r.format.id === "wav16").map((r) => [`${r.where}|${r.patch}|${r.seconds}`, r.bytes]));
  const rows = runs.map((r) => {
    const patchId = r.patch === "base patch" ? "base" : "voices16";
    const wav = wavOf.get(`${r.where}|${r.patch}|${r.seconds}`);
    return makeRow(
      {
        id: `export/format/${r.where}/${patchId}/${r.seconds}s/${r.format.id}`,
        kind: "export",
        name: `${r.format.name}, ${r.patch}, ${lengthName(r.seconds)}, ${r.where === "cli" ? "CLI (whole process)" : "Chromium export worker"}`,
        unit: "x realtime",
        better: "higher",
        audioSeconds: r.seconds,
        yardstick: r.where === "cli" ? REFERENCE_ID : oacId("base"),
        details: {
          wallSeconds: r.wallSeconds,
          bytes: r.bytes,
          sizeVsWav16: wav ? r.bytes / wav : null,
          peakMB: r.peakMB,
          beforeMB: r.beforeMB,
        },
      },
      [r.xRealtime],
      r.yardstick === null ? null : [r.yardstick],
    );
  });
  for (const r of runs) {
    const what = `${r.format.name}, ${r.patch}, ${lengthName(r.seconds)}`;
    if (r.where === "cli") {
      const target = CLI_TARGETS[r.format.id];
      if (target !== undefined && r.seconds >= TARGET_MIN_SECONDS) {
        const ok = r.xRealtime >= target;
        checks.push({ name: `CLI ${what} >= ${target}x realtime`, ok });
        if (!ok) misses.push(`CLI ${what}: ${r.xRealtime.toFixed(0)}x < ${target}x`);
      }
      const rssOk = r.peakMB < CLI_RSS_MB;
      if (!rssOk) misses.push(`CLI ${what}: peak RSS ${r.peakMB.toFixed(0)} MB >= ${CLI_RSS_MB} MB`);
    } else {
      const cli = cliOf.get(key(r));
      if (cli && r.seconds >= TARGET_MIN_SECONDS) {
        const ok = r.xRealtime * BROWSER_WITHIN >= cli.xRealtime;
        checks.push({ name: `Chromium ${what} within ${BROWSER_WITHIN}x of the CLI`, ok });
        if (!ok) misses.push(`Chromium ${what}: ${r.xRealtime.toFixed(0)}x against the CLI's ${cli.xRealtime.toFixed(0)}x`);
      }
      const growth = r.peakMB - (r.beforeMB ?? r.peakMB);
      if (growth >= BROWSER_GROWTH_MB) misses.push(`Chromium ${what}: memory grew ${growth.toFixed(0)} MB during the export`);
    }
  }
  // Flat memory: per place, patch and format, the longest export against the shortest.
  const grown = (r: FormatRun) => (r.where === "cli" ? r.peakMB : r.peakMB - (r.beforeMB ?? r.peakMB));
  const groups = new Map<string, FormatRun[]>();
  for (const r of runs) {
    const k = `${r.where}|${r.patch}|${r.format.id}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  let flat: boolean | null = null;
  for (const group of groups.values()) {
    if (new Set(group.map((r) => r.seconds)).size < 2) continue;
    const sorted = [...group].sort((a, b) => a.seconds - b.seconds);
    const [short, long] = [sorted[0], sorted[sorted.length - 1]];
    const more = grown(long) - grown(short);
    const ok = more < FLAT_MB;
    flat = (flat ?? true) && ok;
    if (!ok) misses.push(`${long.where === "cli" ? "CLI" : "Chromium"} ${long.format.name}, ${long.patch}: ${more.toFixed(0)} MB more at ${lengthName(long.seconds)} than at ${lengthName(short.seconds)}`);
  }
  checks.push({ name: `Memory flat with length (longest export within ${FLAT_MB} MB of the shortest)`, ok: flat });
  const cliPeak = Math.max(0, ...runs.filter((r) => r.where === "cli").map((r) => r.peakMB));
  checks.push({ name: `CLI export peak RSS under ${CLI_RSS_MB} MB in every format`, ok: cliPeak > 0 ? cliPeak < CLI_RSS_MB : null });
  const browserRuns = runs.filter((r) => r.where === "chromium");
  const growth = Math.max(0, ...browserRuns.map((r) => r.peakMB - (r.beforeMB ?? r.peakMB)));
  checks.push({ name: `Chromium export memory growth under ${BROWSER_GROWTH_MB} MB in every format`, ok: browserRuns.length ? growth < BROWSER_GROWTH_MB : null });
  return { rows, checks, misses };
}

const HEADER = "where    | patch      | length | format        | wall s  | x realtime | size vs WAV 16 | peak MB (before)";

function line(r: FormatRun, wavBytes: number | undefined): string {
  return [
    r.where.padEnd(8), r.patch.padEnd(10), lengthName(r.seconds).padStart(6), r.format.name.padEnd(13), r.wallSeconds.toFixed(2).padStart(7),
    `${r.xRealtime.toFixed(0)}x`.padStart(10), (wavBytes ? `${((100 * r.bytes) / wavBytes).toFixed(1)} %` : "").padStart(14),
    `${r.peakMB.toFixed(0)}${r.beforeMB === null ? "" : ` (${r.beforeMB.toFixed(0)})`}`,
  ].join(" | ");
}

export interface ExportFormatsOptions {
  /** Seconds of audio per export. */
  lengths: number[];
  /** Also the 16-voice session (else the base patch only). */
  voices: boolean;
  /** Only these formats (default: all). */
  formats?: readonly FormatKey[];
  browser: boolean;
  /** Samples the Node yardstick beside each CLI run (bench/run.ts); null: no yardstick. */
  yard: NodeYardstick | null;
  /** Prints each run's line as it ends. */
  print: boolean;
}

export async function runExportFormats(o: ExportFormatsOptions): Promise<ExportFormatsBench> {
  const patches: [string, AudioState][] = [["base patch", basePatch()]];
  if (o.voices) patches.push(["16 voices", voicesPatch()]);
  const wav = new Map<string, number>();
  const log = (r: FormatRun) => {
    if (r.format.id === "wav16") wav.set(`${r.where}|${r.patch}|${r.seconds}`, r.bytes);
    if (o.print) console.log(line(r, wav.get(`${r.where}|${r.patch}|${r.seconds}`)));
  };
  if (o.print) console.log(HEADER);
  const formats = FORMATS.filter((f) => !o.formats || o.formats.includes(f.id) || f.id === "wav16"); // WAV 16: the size reference
  const runs = await cliRuns(formats, patches, o.lengths, o.yard, log);
  if (o.browser) runs.push(...(await chromiumRuns(formats, patches, o.lengths, log)));
  return { runs, ...rowsOf(runs) };
}

/** The table bench/run.ts prints under its export rows. */
export function formatsTable(runs: FormatRun[]): string {
  const wav = new Map(runs.filter((r) => r.format.id === "wav16").map((r) => [`${r.where}|${r.patch}|${r.seconds}`, r.bytes]));
  return [HEADER, ...runs.map((r) => line(r, wav.get(`${r.where}|${r.patch}|${r.seconds}`)))].join("\n");
}

// Run on its own.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      long: { type: "boolean", default: false },
      hours: { type: "string" },
      formats: { type: "string" },
      "base-only": { type: "boolean", default: false },
      "no-browser": { type: "boolean", default: false },
    },
  });
  const formats = values.formats?.split(",") as FormatKey[] | undefined;
  const unknown = formats?.filter((f) => !FORMATS.some((c) => c.id === f)) ?? [];
  if (unknown.length) throw new Error(`unknown format ${unknown.join(", ")}: the formats are ${FORMATS.map((f) => f.id).join(", ")}`);
  const lengths = values.hours ? [Number(values.hours) * 3600] : values.quick ? [120] : values.long ? [3600, 43200] : [3600];
  const result = await runExportFormats({ lengths, voices: !values.quick && !values["base-only"], formats, browser: !values["no-browser"], yard: null, print: true });
  for (const c of result.checks) console.log(`check: ${c.name}: ${c.ok === null ? "not measured" : c.ok ? "met" : "MISSED"}`);
  console.log(result.misses.length ? `targets missed: ${result.misses.join("; ")}` : "export formats: every target met");
}
