// --compare (bench/compare.ts): rows are compared on their machine-independent figure against a
// baseline; a row that fell by more than the tolerance fails and is named, a smaller fall passes,
// a slower machine alone never fails, a missing row is reported, a row too noisy in the baseline's
// ten runs is reported without gating, and a baseline of another schema version or mode is a
// clear error.

import { describe, expect, it } from "vitest";
import { compareResults, confirmFalls, describeComparison } from "../../../bench/compare";
import { parseBenchResult } from "../../../bench/schema";
import { baselineWithSpread, fixture } from "./fixture";

const verdict = (c: ReturnType<typeof compareResults>, id: string) => c.verdicts.find((v) => v.id === id)!;

describe("compareResults", () => {
  it("fails a row 15 % down at tolerance 10 and names it", () => {
    const c = compareResults(fixture({ scale: { "dsp/chromium/base": 0.85 } }), fixture(), 10);
    expect(c.failures.map((f) => f.id)).toEqual(["dsp/chromium/base"]);
    const v = verdict(c, "dsp/chromium/base");
    expect(v.status).toBe("regressed");
    expect(v.changePercent).toBeCloseTo(-15, 6);
    expect(describeComparison(c)).toMatch(/REGRESSED: dsp\/chromium\/base \(base patch, engine in Chromium worker\): fell -15\.0 % \(tolerance 10 %\)/);
  });

  it("passes a row 5 % down at tolerance 10", () => {
    const c = compareResults(fixture({ scale: { "dsp/chromium/base": 0.95 } }), fixture(), 10);
    expect(c.failures).toEqual([]);
    expect(verdict(c, "dsp/chromium/base")).toMatchObject({ status: "ok", gates: true });
    expect(verdict(c, "dsp/chromium/base").changePercent).toBeCloseTo(-5, 6);
  });

  it("treats a cost (ns per frame) that grew as a fall in speed", () => {
    // The reverb's speed at 0.85: its cost per frame is 1 / 0.85 = 1.18 times the baseline's.
    const down15 = compareResults(fixture({ scale: { "fx/reverb": 0.85 } }), fixture(), 10);
    expect(down15.failures.map((f) => f.id)).toEqual(["fx/reverb"]);
    expect(verdict(down15, "fx/reverb").changePercent).toBeCloseTo(-15, 6);
    expect(compareResults(fixture({ scale: { "fx/reverb": 0.95 } }), fixture(), 10).failures).toEqual([]);
  });

  it("does not fail a slower machine: the yardsticks slow down with it", () => {
    const c = compareResults(fixture({ machine: 0.5 }), fixture(), 10);
    expect(c.failures).toEqual([]);
    for (const id of ["dsp/chromium/base", "dsp/node/base", "fx/reverb"]) expect(verdict(c, id).changePercent).toBeCloseTo(0, 6);
    // The yardsticks themselves show the machine's speed and never gate.
    expect(verdict(c, "yardstick/oac-base")).toMatchObject({ status: "yardstick", gates: false });
    expect(verdict(c, "yardstick/oac-base").changePercent).toBeCloseTo(-50, 6);
  });

  it("fails a real regression on a faster machine too", () => {
    const c = compareResults(fixture({ machine: 2, scale: { "dsp/node/base": 0.8 } }), fixture(), 10);
    expect(c.failures.map((f) => f.id)).toEqual(["dsp/node/base"]);
  });

  it("reports, without gating, a Chromium row measured in another Chromium release; Node rows still gate", () => {
    const current = fixture({ scale: { "dsp/chromium/base": 0.7, "dsp/node/base": 0.7 } });
    current.machine = { ...current.machine, chromium: "150.0.7871.100" };
    const baseline = fixture();
    baseline.machine = { ...baseline.machine, chromium: "156.0.8078.79" };
    const c = compareResults(current, baseline, 10);
    expect(verdict(c, "dsp/chromium/base")).toMatchObject({ status: "slower-not-gating", gates: false, note: "another Chromium release" });
    expect(c.failures.map((f) => f.id)).toEqual(["dsp/node/base"]);
    expect(describeComparison(c)).toMatch(/Chromium 150\.0\.7871\.100 is another release than the baseline's 156\.0\.8078\.79/);
    expect(describeComparison(c)).toMatch(/slower, not gated \(another Chromium release\): dsp\/chromium\/base -30\.0 %/);
    // A patch release of the same Chromium keeps the gate.
    current.machine = { ...current.machine, chromium: "156.0.8078.114" };
    expect(compareResults(current, baseline, 10).failures.map((f) => f.id)).toEqual(["dsp/chromium/base", "dsp/node/base"]);
  });

  it("reports a row missing from this run, and fails", () => {
    const current = fixture();
    current.rows = current.rows.filter((r) => r.id !== "fx/gate");
    const c = compareResults(current, fixture(), 10);
    expect(verdict(c, "fx/gate")).toMatchObject({ status: "missing", note: "row missing from this run" });
    expect(c.failures.map((f) => f.id)).toEqual(["fx/gate"]);
    expect(describeComparison(c)).toMatch(/MISSING: fx\/gate \(Gate\): row missing from this run/);
  });

  it("lists a row the baseline lacks as new without failing", () => {
    const baseline = fixture();
    baseline.rows = baseline.rows.filter((r) => r.id !== "fx/gate");
    const c = compareResults(fixture(), baseline, 10);
    expect(verdict(c, "fx/gate").status).toBe("new");
    expect(c.failures).toEqual([]);
  });

  it("fails a row whose yardstick changed: its figure means something else now", () => {
    const current = fixture();
    current.rows.find((r) => r.id === "dsp/node/base")!.yardstick = "yardstick/wasm-reference-synth-v2";
    const c = compareResults(current, fixture(), 10);
    expect(verdict(c, "dsp/node/base").status).toBe("incomparable");
    expect(c.failures.map((f) => f.id)).toEqual(["dsp/node/base"]);
  });

  it("reports, without gating, a row whose ten-run spread is too wide for the tolerance", () => {
    // Gate only when the tolerance is at least 1.5 times the row's measured spread.
    const baseline = baselineWithSpread({ "fx/gate": 40, "dsp/chromium/base": 6 });
    const c = compareResults(fixture({ scale: { "fx/gate": 0.7, "dsp/chromium/base": 0.85 } }), baseline, 10);
    expect(verdict(c, "fx/gate")).toMatchObject({ status: "slower-not-gating", gates: false });
    expect(verdict(c, "dsp/chromium/base")).toMatchObject({ status: "regressed", gates: true });
    expect(c.failures.map((f) => f.id)).toEqual(["dsp/chromium/base"]);
    expect(describeComparison(c)).toMatch(/slower but too noisy here to gate: fx\/gate -30\.0 %/);
    expect(verdict(compareResults(fixture(), baselineWithSpread({ "dsp/chromium/base": 7 }), 10), "dsp/chromium/base").gates).toBe(false);
  });

  it("compares against the baseline's ten-run median and takes its tolerance by default", () => {
    const baseline = baselineWithSpread({}, 20);
    baseline.stability!.rows["dsp/node/base"].median *= 1 / 0.85; // this run is 15 % under the median
    const c = compareResults(fixture(), baseline);
    expect(c.tolerancePercent).toBe(20);
    expect(verdict(c, "dsp/node/base").changePercent).toBeCloseTo(-15, 6);
    expect(c.failures).toEqual([]);
    expect(compareResults(fixture(), baseline, 10).failures.map((f) => f.id)).toEqual(["dsp/node/base"]);
  });

  it("marks a row faster than the tolerance as improved", () => {
    expect(verdict(compareResults(fixture({ scale: { "dsp/node/base": 1.2 } }), fixture(), 10), "dsp/node/base").status).toBe("improved");
  });

  it("warns when the machine or browser differs from the baseline's", () => {
    const current = fixture();
    current.machine.chromium = "157.0.0.0";
    expect(compareResults(current, fixture(), 10).warnings.join("\n")).toMatch(/chromium differs from the baseline's \(156\.0\.8078\.79 -> 157\.0\.0\.0\)/);
  });

  it("refuses to compare a quick run with a full baseline", () => {
    const full = { ...fixture(), mode: "full" as const };
    expect(() => compareResults(fixture(), full, 10)).toThrow(/This run is quick but the baseline is full/);
  });

  it("makes a baseline of another schema version a clear error", () => {
    const text = JSON.stringify({ ...fixture(), schemaVersion: 2 });
    expect(() => parseBenchResult(text, "bench/baseline.json")).toThrow(
      "bench/baseline.json has bench schema version 2; this bench reads version 1. Make a new one with `npm run bench -- --quick --json <file>` (see bench/SCHEMA.md).",
    );
    expect(() => parseBenchResult(JSON.stringify({ rows: [] }), "old.json")).toThrow(/old\.json has bench schema version null; this bench reads version 1/);
  });
});

describe("confirmFalls", () => {
  // The row's figure per pass: what a best-of estimator gives after each extra pass.
  const run = async (figures: number[]) => {
    let k = 0;
    const passes: string[][] = [];
    const taken = await confirmFalls(
      () => compareResults(fixture({ scale: { "dsp/node/base": figures[k] } }), fixture(), 15).verdicts,
      async (fell) => {
        passes.push(fell.map((f) => f.id));
        k++;
      },
      3,
    );
    const final = compareResults(fixture({ scale: { "dsp/node/base": figures[k] } }), fixture(), 15);
    return { taken, passes, failures: final.failures.map((f) => f.id) };
  };

  it("takes no extra pass when nothing fell", async () => {
    expect(await run([0.95])).toEqual({ taken: 0, passes: [], failures: [] });
  });

  it("measures a fallen row again and passes it once a pass brings it back", async () => {
    expect(await run([0.8, 0.83, 0.97])).toEqual({ taken: 2, passes: [["dsp/node/base"], ["dsp/node/base"]], failures: [] });
  });

  it("still fails a real slowdown after the extra passes", async () => {
    expect(await run([0.7, 0.7, 0.71, 0.72])).toEqual({ taken: 3, passes: [["dsp/node/base"], ["dsp/node/base"], ["dsp/node/base"]], failures: ["dsp/node/base"] });
  });
});
