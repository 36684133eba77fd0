// The export report as text: what the studio shows after an export and what `npm run render --
// --report` writes. One line per check, each starting with PASS, FAIL or SKIP, so that a reader
// (or grep) finds the failures at once; numbers carry their units. The studio's panel uses the
// same lines (reportLines) so the two never say different things.

import type { BoundaryCheck, ExportReport, ToneCheck } from "./report";
import { LEVEL_TOLERANCE_DB, LOSSLESS_LIMIT_LSB, TONE_TOLERANCE_HZ, type DecodedCheck, type DecodedToneCheck } from "./decoded-check";

/** 1:02:03.5 / 2:03.5 / 3.5 s. */
export function clockText(seconds: number): string {
  const whole = Math.floor(seconds);
  const frac = seconds - whole >= 0.05 ? `.${Math.round((seconds - whole) * 10) % 10}` : "";
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h > 0) return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}${frac}`;
  return `${m}:${String(s).padStart(2, "0")}${frac}`;
}

const TAG = { pass: "PASS", fail: "FAIL", skipped: "SKIP" } as const;
const hz = (v: number, digits = 3): string => `${v.toFixed(digits)} Hz`;
/** A difference with its sign, and no "-0.000" for a difference that rounds to nothing. */
const signed = (d: number): string => {
  const t = Math.abs(d).toFixed(3);
  return Number(t) === 0 ? `±${t}` : `${d > 0 ? "+" : "-"}${t}`;
};

function toneLine(c: ToneCheck): string {
  const what = c.kind === "beat" ? `Channel ${c.channel} beat (right - left)` : `Channel ${c.channel}${c.ear === "mix" ? "" : ` ${c.ear} ear`}`;
  const expected = `expected ${hz(c.expectedHz)}${c.ramp ? " (ramp)" : ""}`;
  const measured = c.measuredHz === null ? "" : `, measured ${hz(c.measuredHz)} (${signed(c.measuredHz - c.expectedHz)})`;
  const level = c.levelDbfs !== undefined ? `, ${c.levelDbfs.toFixed(1)} dBFS` : "";
  return `${TAG[c.status]} ${what}: ${expected}${measured}, tolerance ±${c.toleranceHz.toFixed(3)} Hz${level}${c.note ? `. ${c.note}` : ""}`;
}

function boundaryLine(b: BoundaryCheck): string {
  const name = `Step ${b.step}${b.label ? ` (${b.label})` : ""} at ${clockText(b.at)}`;
  return `${TAG[b.status]} ${name}: largest sample step ${b.maxStep.toFixed(4)} (before ${b.before.toFixed(4)}, after ${b.after.toFixed(4)}, limit ${b.limit.toFixed(4)})`;
}

function decodedToneLine(t: DecodedToneCheck): string {
  const what = `${t.window[0].toUpperCase()}${t.window.slice(1)}, channel ${t.channel}${t.ear === "mix" ? "" : ` ${t.ear} ear`}`;
  if (t.decodedHz === null || t.decodedDbfs === null) return `${TAG[t.status]} ${what}: rendered ${hz(t.renderedHz)}${t.note ? `. ${t.note}` : ""}`;
  const level = t.decodedDbfs - t.renderedDbfs;
  return `${TAG[t.status]} ${what}: ${hz(t.decodedHz)} (${signed(t.decodedHz - t.renderedHz)} Hz from the render), ${t.decodedDbfs.toFixed(1)} dBFS (${signed(level)} dB)`;
}

function decodedLines(d: DecodedCheck, expected: number): string[] {
  if (!d.decodedBack) return [`${TAG[d.status]} Not decoded back: ${d.note ?? "no decoder"}`];
  const tol = `tones within ±${TONE_TOLERANCE_HZ} Hz and ±${LEVEL_TOLERANCE_DB} dB of the render`;
  const lines = [`Decoded by ${d.decoder}; ${tol}`];
  const stated = d.durationSeconds === null ? "states none" : `${clockText(d.durationSeconds)} (${d.durationSeconds.toFixed(3)} s)`;
  lines.push(`${TAG[d.duration]} Duration in the file: ${stated}, rendered ${expected.toFixed(3)} s${d.lossless ? " (to the frame)" : ""}`);
  if (d.samples && d.maxDifferenceLsb !== undefined) {
    lines.push(`${TAG[d.samples]} Samples: the largest difference from the render is ${d.maxDifferenceLsb.toFixed(2)} LSB (limit ${LOSSLESS_LIMIT_LSB}: the dither and the rounding)`);
  }
  for (const t of d.tones) lines.push(decodedToneLine(t));
  return lines;
}

/** The report's headline: pass or fail with the counts. */
export function reportSummary(r: ExportReport): string {
  const { pass, fail, skipped } = r.counts;
  const total = pass + fail + skipped;
  const skip = skipped > 0 ? `, ${skipped} skipped` : "";
  return r.pass ? `Verified: ${pass} of ${total} checks passed${skip}.` : `${fail} of ${total} checks failed${skip}.`;
}

export interface ReportSection {
  title: string;
  lines: string[];
}

/** The report in titled sections of lines (the studio's panel renders these). */
export function reportSections(r: ExportReport): ReportSection[] {
  const peak = r.peakDbfs === null ? "silent" : `${r.peakDbfs.toFixed(1)} dBFS`;
  const loud = r.loudnessLufs === null ? "" : `, loudness ${r.loudnessLufs.toFixed(1)} LUFS integrated`;
  const sections: ReportSection[] = [
    {
      title: "Levels",
      lines: [
        `${clockText(r.duration)} of audio, ${r.sampleRate} Hz stereo, ${r.frames.toLocaleString("en-US")} frames; peak ${peak}${loud}`,
        `${TAG[r.clipping]} Clipping: ${r.clippedSamples.toLocaleString("en-US")} samples at or beyond full scale`,
      ],
    },
  ];
  const a = r.analysis;
  const method = `${a.windowFrames}-point ${a.window} windows zero-padded to ${a.paddedFrames}, ${a.interpolation}; steady tones ±${a.steadyToleranceHz.toFixed(3)} Hz, ramps add ${Math.round(a.rampToleranceShare * 100)} % of the sweep within the window`;
  const freq: string[] = [method];
  if (r.windowsNote) freq.push(r.windowsNote);
  for (const w of r.windows) {
    freq.push(`${w.label[0].toUpperCase()}${w.label.slice(1)}: ${clockText(w.start)} to ${clockText(w.start + w.seconds)}${w.clearOfSteps ? "" : " (spans a step)"}`);
    if (w.checks.length === 0) freq.push("  No sounding channel in this window.");
    for (const c of w.checks) freq.push(`  ${toneLine(c)}`);
  }
  sections.push({ title: "Frequencies", lines: freq });
  if (r.boundaries.length > 0) {
    const steady = r.steadyMaxStep === null ? "" : `; largest step in the steady audio: ${r.steadyMaxStep.toFixed(4)}`;
    sections.push({ title: "Step boundaries (clicks)", lines: [`Largest sample-to-sample step around each step${steady}`, ...r.boundaries.map(boundaryLine)] });
  }
  if (r.decoded) sections.push({ title: `${r.decoded.format} decoded back`, lines: decodedLines(r.decoded, r.frames / r.sampleRate) });
  return sections;
}

/** The whole report as plain text. */
export function formatReport(r: ExportReport): string {
  const body = reportSections(r).flatMap((s) => ["", `${s.title}:`, ...s.lines.map((l) => `  ${l}`)]);
  return [`Export report: ${reportSummary(r)}`, ...body, ""].join("\n");
}
