// Number and label formatting shared by the console table, the Markdown summary and the HTML
// report, so the three always show a row the same way.

import { REFERENCE_ID, oacId } from "./measure";
import { isAbsoluteKind, type BenchRow } from "./schema";

const YARDSTICK_LABELS: Record<string, string> = {
  [oacId("base")]: "OfflineAudioContext (base patch)",
  [oacId("comparison")]: "OfflineAudioContext (comparison patch)",
  [REFERENCE_ID]: "wasm reference synth",
};

export function yardstickLabel(id: string): string {
  return YARDSTICK_LABELS[id] ?? id;
}

/** Three significant digits, no exponent (1234, 12.3, 0.0712). */
export function num(x: number): string {
  return Math.abs(x) >= 100 ? x.toFixed(0) : Number(x.toPrecision(3)).toString();
}

export function fmtValue(r: Pick<BenchRow, "value" | "unit">): string {
  return `${num(r.value)} ${r.unit}`;
}

/** "12.5x OfflineAudioContext (base patch)" or "0.81 JS reference synth frames"; UI rows have no
 *  yardstick (bench/SCHEMA.md): their figures are absolute. */
export function fmtRelative(relative: number | null, row: Pick<BenchRow, "better" | "yardstick"> & Partial<Pick<BenchRow, "kind">>): string {
  if (row.kind !== undefined && isAbsoluteKind(row.kind)) return "absolute (never gates)";
  if (relative === null || row.yardstick === null) return "yardstick";
  return row.better === "higher" ? `${num(relative)}x ${yardstickLabel(row.yardstick)}` : `${num(relative)} ${yardstickLabel(row.yardstick)} frames`;
}

/** "best of 9, spread 2.1 %"; a UI row is one measured window: "one 20 s window". */
export function fmtRepeats(r: Pick<BenchRow, "samples" | "spreadPercent"> & Partial<Pick<BenchRow, "kind" | "details">>): string {
  const window = r.details?.windowSeconds;
  if (r.kind === "ui" && typeof window === "number") return `one ${Math.round(window)} s window`;
  if (r.kind === "api" && typeof window === "number") return `one ${num(window)} s run at ${String(r.details?.connections ?? 10)} connections`;
  return `best of ${r.samples.length}, spread ${r.spreadPercent.toFixed(1)} %`;
}

/** The row's target; with its verdict when the row records one (`details.met`, the UI rows):
 *  ">= 24 fps: met", "<= 40 %: MISSED". */
export function fmtTarget(r: Pick<BenchRow, "target" | "unit"> & Partial<Pick<BenchRow, "details">>): string {
  if (!r.target) return "";
  const met = r.details?.met;
  return typeof met === "boolean" ? `${r.target} ${r.unit}: ${met ? "met" : "MISSED"}` : r.target;
}

export function pct(x: number | null): string {
  if (x === null) return "n/a";
  const t = x.toFixed(1);
  return t === "-0.0" || t === "0.0" ? "0.0 %" : `${x > 0 ? "+" : ""}${t} %`;
}

