// Number and label formatting shared by the console table, the Markdown summary and the HTML
// report, so the three always show a row the same way.

import type { Status, Verdict } from "./compare";
import type { BenchRow } from "./schema";

const YARDSTICK_LABELS: Record<string, string> = {
  "yardstick/oac-base": "OfflineAudioContext (base patch)",
  "yardstick/oac-comparison": "OfflineAudioContext (comparison patch)",
  "yardstick/wasm-reference-synth-v1": "wasm reference synth",
};

export function yardstickLabel(id: string): string {
  return YARDSTICK_LABELS[id] ?? id;
}

export function num(x: number): string {
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : x.toFixed(2);
}

export function fmtValue(r: Pick<BenchRow, "value" | "unit">): string {
  return `${num(r.value)} ${r.unit}`;
}

/** "12.5x OfflineAudioContext (base patch)" or "0.81 JS reference synth frames". */
export function fmtRelative(relative: number | null, row: Pick<BenchRow, "better" | "yardstick">): string {
  if (relative === null || row.yardstick === null) return "yardstick";
  return row.better === "higher" ? `${num(relative)}x ${yardstickLabel(row.yardstick)}` : `${num(relative)} ${yardstickLabel(row.yardstick)} frames`;
}

export function fmtRepeats(r: Pick<BenchRow, "samples" | "spreadPercent">): string {
  return `best of ${r.samples.length}, spread ${r.spreadPercent.toFixed(1)} %`;
}

export function pct(x: number | null): string {
  return x === null ? "n/a" : `${x > 0 ? "+" : ""}${x.toFixed(1)} %`;
}

export const STATUS_TEXT: Record<Status, string> = {
  ok: "ok",
  regressed: "REGRESSED",
  "slower-not-gating": "slower (not gating: noisy)",
  improved: "faster",
  missing: "MISSING",
  incomparable: "INCOMPARABLE",
  new: "new (not in baseline)",
  yardstick: "yardstick",
};

export function fmtVerdict(v: Verdict | undefined): string {
  if (!v) return "";
  return `${STATUS_TEXT[v.status]}${v.changePercent !== null ? ` ${pct(v.changePercent)}` : ""}${v.gates ? "" : v.status === "yardstick" ? "" : ", not gating"}`;
}
