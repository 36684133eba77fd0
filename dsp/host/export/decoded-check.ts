// The export report's last section for an encoded file (FLAC, MP3, Opus): the finished file is
// decoded back by a decoder that is not this product's (ffmpeg in the CLI, the browser's own
// WebCodecs decoder in the studio) and compared with what was rendered:
//
// - its duration as the container tells it: exact to the frame for FLAC, within LOSSY_DURATION_S
//   for MP3 and Opus (their frames and the encoder's delay round it);
// - for FLAC, every sample of the report's analysis windows against the rendered float samples:
//   at most LOSSLESS_LIMIT_LSB apart in units of the file's last bit, which is what the dither
//   (+/-1 LSB) and the rounding (1/2 LSB) account for. Anything more is a lost or changed sample;
// - the tones: in each window, every tone the render's own check measured is looked for again
//   in the decoded audio, and must sit within TONE_TOLERANCE_HZ of the rendered frequency and
//   within LEVEL_TOLERANCE_DB of its level. These are the listening check's figures for MP3 and
//   Opus at their recommended bitrates (docs/performance.md).
//
// The decoder is behind DecodedAudio, so the CLI and the export worker share every rule here.
// Reading is window by window (three windows of at most 1.4 s each), never the whole file.

import { BH_HALF_LOBE_BINS, peakIn, spectrum } from "../analysis/spectrum";
import type { ExportFormat } from "./formats";
import type { CheckStatus, DecodedCheck, DecodedToneCheck, ExportReport, RenderedWindow } from "./report";

export type { DecodedCheck, DecodedToneCheck, RenderedWindow } from "./report";

export const LOSSY_DURATION_S = 0.1;
export const LOSSLESS_LIMIT_LSB = 1.5;
export const TONE_TOLERANCE_HZ = 0.05;
export const LEVEL_TOLERANCE_DB = 0.5;

/** A finished file, opened by a decoder. */
export interface DecodedAudio {
  /** What decoded it, in the report's words: "ffmpeg", "the browser's WebCodecs decoder". */
  readonly decoder: string;
  /** The duration the file states (seconds), or null when it states none. */
  duration(): Promise<number | null>;
  /** True when the decoder gives a lossless file's integer q as q / (2^(bits - 1) - 1), not as
   *  q / 2^(bits - 1) as ffmpeg and WebCodecs do. Read after each read(): it may change. */
  readonly dividesByMaxInteger?: boolean;
  /** Planar stereo frames [from, from + frames) at the render's sample rate (zeros past the end). */
  read(from: number, frames: number): Promise<{ left: Float32Array; right: Float32Array }>;
  close?(): Promise<void> | void;
}

const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;
const dbfs = (v: number): number => 20 * Math.log10(v);

/** The report with `decoded` added and its counts and verdict updated. */
export function withDecodedCheck(report: ExportReport, decoded: DecodedCheck): ExportReport {
  const counts = { ...report.counts };
  const statuses: CheckStatus[] = !decoded.decodedBack ? [decoded.status] : [decoded.duration, ...(decoded.samples ? [decoded.samples] : []), ...decoded.tones.map((t) => t.status)];
  for (const s of statuses) counts[s]++;
  return { ...report, decoded, counts, pass: report.pass && counts.fail === report.counts.fail };
}

/** A report section saying the file was not decoded back, and why. */
export function notDecoded(format: ExportFormat, label: string, why: string, status: CheckStatus = "skipped"): DecodedCheck {
  return { format: label, decoder: "", lossless: format.lossless, decodedBack: false, durationSeconds: null, duration: "skipped", tones: [], status, note: why };
}

/** Decodes the report's windows back from the finished file and checks them against the render. */
export async function checkDecoded(
  report: ExportReport,
  windows: readonly RenderedWindow[],
  format: ExportFormat,
  label: string,
  audio: DecodedAudio,
): Promise<DecodedCheck> {
  const fs = report.sampleRate;
  const stated = await audio.duration();
  const expected = report.frames / fs;
  const durationOk = stated !== null && (format.lossless ? Math.round(stated * fs) === report.frames : Math.abs(stated - expected) <= LOSSY_DURATION_S);
  const out: DecodedCheck = {
    format: label, decoder: audio.decoder, lossless: format.lossless, decodedBack: true,
    durationSeconds: stated === null ? null : round(stated, 4), duration: durationOk ? "pass" : "fail", tones: [], status: "pass",
  };
  if (stated === null) out.note = "The file states no duration.";
  const bits = format.pcm === "s24" ? 24 : 16;
  // The engine maps +1.0 to 2^(bits-1) - 1.
  const renderedScale = 2 ** (bits - 1) - 1;
  let maxDiff = 0;
  for (const w of windows) {
    const n = w.left.length;
    const d = await audio.read(w.from, n);
    const decodedScale = audio.dividesByMaxInteger ? renderedScale : 2 ** (bits - 1);
    if (format.lossless) {
      for (const [r, x] of [[w.left, d.left], [w.right, d.right]] as const) {
        for (let i = 0; i < n; i++) maxDiff = Math.max(maxDiff, Math.abs(x[i] * decodedScale - r[i] * renderedScale));
      }
    }
    const rw = report.windows.find((x) => x.label === w.label);
    if (!rw) continue;
    const spectra = new Map<string, [ReturnType<typeof spectrum>, ReturnType<typeof spectrum>]>();
    const pair = (ear: DecodedToneCheck["ear"]) => {
      let s = spectra.get(ear);
      if (!s) {
        const pick = (l: Float32Array, r: Float32Array) => (ear === "left" ? l : ear === "right" ? r : l.map((v, i) => (v + r[i]) / 2));
        s = [spectrum(pick(w.left, w.right), fs, 2), spectrum(pick(d.left, d.right), fs, 2)];
        spectra.set(ear, s);
      }
      return s;
    };
    const bin = fs / n;
    const tones = rw.checks.filter((c) => c.kind === "carrier" && c.measuredHz !== null && c.levelDbfs !== undefined);
    for (const c of tones) {
      const ear = c.ear;
      const [rendered, decoded] = pair(ear);
      const neighbours = tones.filter((o) => o !== c && o.ear === ear).map((o) => Math.abs(o.measuredHz! - c.measuredHz!) / 2);
      const room = Math.min(BH_HALF_LOBE_BINS * bin, ...neighbours);
      const r = peakIn(rendered, c.measuredHz! - room, c.measuredHz! + room);
      const p = peakIn(decoded, c.measuredHz! - room, c.measuredHz! + room);
      const check: DecodedToneCheck = {
        window: w.label, channel: c.channel, ear, renderedHz: round(r?.frequency ?? c.measuredHz!, 4), renderedDbfs: round(r ? dbfs(r.amplitude) : c.levelDbfs!, 2),
        decodedHz: null, decodedDbfs: null, status: "fail",
      };
      if (!p || !p.inside || p.amplitude <= 0) {
        out.tones.push({ ...check, note: `No tone within ${round(room, 2)} Hz in the decoded file.` });
        continue;
      }
      check.decodedHz = round(p.frequency, 4);
      check.decodedDbfs = round(dbfs(p.amplitude), 2);
      const ok = Math.abs(p.frequency - (r?.frequency ?? c.measuredHz!)) <= TONE_TOLERANCE_HZ && Math.abs(check.decodedDbfs - check.renderedDbfs) <= LEVEL_TOLERANCE_DB;
      out.tones.push({ ...check, status: ok ? "pass" : "fail" });
    }
  }
  if (format.lossless && windows.length > 0) {
    out.maxDifferenceLsb = round(maxDiff, 3);
    out.samples = maxDiff <= LOSSLESS_LIMIT_LSB + 1e-6 ? "pass" : "fail";
  }
  // Who decoded it: a decoder may hand over to another on the way (mediabunny-decoder.ts).
  out.decoder = audio.decoder;
  const all = [out.duration, out.samples ?? "pass", ...out.tones.map((t) => t.status)];
  out.status = all.includes("fail") ? "fail" : "pass";
  return out;
}
