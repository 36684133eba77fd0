// The bench results schema (bench/schema.ts, documented in bench/SCHEMA.md): what the bench writes
// parses, round-trips through JSON and carries its machine; rows of kind "ui" are valid;
// malformed files fail with the path of the first bad field; the committed baseline is valid and
// was made by bench/spread.ts. Also the machine-independent figure of bench/measure.ts.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FS, REFERENCE_ID, makeRow, relativeOf, spreadPercent } from "../../../bench/measure";
import { SCHEMA_VERSION, benchResultSchema, parseBenchResult } from "../../../bench/schema";
import { fixture } from "./fixture";

const BASELINE = fileURLToPath(new URL("../../../bench/baseline.json", import.meta.url));

describe("bench results schema", () => {
  it("accepts a result and round-trips it through JSON", () => {
    const r = fixture();
    expect(parseBenchResult(JSON.stringify(r), "r.json")).toEqual(r);
    expect(r.schemaVersion).toBe(SCHEMA_VERSION);
  });

  it("accepts rows of kind 'ui', with or without a yardstick (bench/ui-rows.ts makes them without)", () => {
    const r = fixture();
    r.rows.push(
      makeRow({ id: "ui/spectrogram-frame", kind: "ui", name: "spectrogram, one frame", unit: "ms", better: "lower", yardstick: REFERENCE_ID }, [2.1, 2.4], [3800]),
      makeRow({ id: "ui/cpu-x4/waveform-fps", kind: "ui", name: "waveform fps", unit: "fps", better: "higher", yardstick: null, target: ">= 24", details: { met: true } }, [24], null),
    );
    expect(benchResultSchema.safeParse(r).success).toBe(true);
  });

  it("rejects a malformed row with the path of the first bad field", () => {
    const bad = fixture() as unknown as { rows: Record<string, unknown>[] };
    bad.rows[2].samples = [];
    expect(() => parseBenchResult(JSON.stringify(bad), "bad.json")).toThrow(/^bad\.json is not a valid bench result: rows\.2\.samples: /);
    const kind = fixture() as unknown as { rows: Record<string, unknown>[] };
    kind.rows[0].kind = "gpu";
    expect(() => parseBenchResult(JSON.stringify(kind), "k.json")).toThrow(/rows\.0\.kind/);
    expect(() => parseBenchResult("{ not json", "x.json")).toThrow(/^x\.json is not JSON: /);
  });

  it("rejects a non-finite figure (JSON has no Infinity: it would arrive as null)", () => {
    const r = fixture();
    r.rows[2].value = Infinity;
    expect(benchResultSchema.safeParse(r).success).toBe(false);
  });

  it("the committed bench/baseline.json is valid, quick, and has its ten-run statistics", () => {
    const b = parseBenchResult(readFileSync(BASELINE, "utf8"), "bench/baseline.json");
    expect(b.mode).toBe("quick");
    expect(b.stability?.runs).toBeGreaterThanOrEqual(10);
    for (const r of b.rows) expect(b.stability?.rows[r.id], r.id).toBeDefined();
    const ids = b.rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.startsWith("fx/"))).toHaveLength(30);
  });
});

describe("rows and their machine-independent figure", () => {
  it("divides a throughput by its yardstick's best", () => {
    const row = makeRow(
      { id: "dsp/chromium/base", kind: "dsp", name: "n", unit: "x realtime", better: "higher", yardstick: "yardstick/oac-base" },
      [3500, 3600, 3400],
      [280, 250],
    );
    expect(row.value).toBe(3600);
    expect(row.yardstickValue).toBe(280);
    expect(row.relative).toBeCloseTo(3600 / 280, 12);
    expect(row.spreadPercent).toBeCloseTo((200 / 3600) * 100, 12);
  });

  it("expresses a cost in frames of the yardstick's work", () => {
    // A yardstick at 4000x realtime spends 1e9 / (4000 * 48000) = 5.21 ns per frame.
    expect(relativeOf(5.2083333, "ns/frame", "lower", 4000)).toBeCloseTo(1, 6);
    expect(relativeOf(1, "us", "lower", 4000)).toBeCloseTo((1000 * 4000 * FS) / 1e9, 9);
    expect(() => relativeOf(1, "x realtime", "lower", 4000)).toThrow(/no time unit/);
    expect(spreadPercent([2, 3, 2.5], "lower")).toBeCloseTo(50, 12);
  });
});
