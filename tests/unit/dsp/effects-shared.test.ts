// The suite every effect in the catalogue must pass (after Tone.js's EffectTests): default-on
// renders finite audio at or below 0 dBFS; min, max and every extra stay finite; off is
// bit-identical to the dry signal; toggling while playing makes no step larger than the signal's own.

import { describe, expect, it } from "vitest";
import { EFFECTS, type EffectDef } from "../../../dsp/host/catalogue";
import { createNodeEngine } from "../../../dsp/host/node";
import { defaultAudioState, defaultEffect, type AudioState } from "../../../dsp/host/state";
import { FS, allFinite, engineWith, maxStep, peak, play, renderFrames } from "./helpers";

const built = createNodeEngine(FS);
const implemented = EFFECTS.filter((d) => built.hasEffect(d.wasm));

function withEffect(def: EffectDef, patch: Record<string, unknown> = {}): AudioState {
  const s = defaultAudioState();
  s.channels[1].waveform = "square";
  s.channels[2].waveform = "sawtooth";
  s.channels[3].waveform = "triangle";
  s.effects[def.id] = { ...defaultEffect(def), enabled: true, ...patch };
  return s;
}

function same(a: Float32Array, b: Float32Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

it("at least one effect is built", () => {
  expect(implemented.length).toBeGreaterThan(0);
});

describe.each(implemented.map((d) => [d.id, d] as const))("%s", (_id, def) => {
  it("default-on renders finite audio at or below 0 dBFS", () => {
    const { left, right } = play(withEffect(def), 1);
    expect(allFinite(left) && allFinite(right)).toBe(true);
    expect(Math.max(peak(left), peak(right))).toBeLessThanOrEqual(1);
    expect(Math.max(peak(left), peak(right))).toBeGreaterThan(0);
  });

  const extremes: Record<string, unknown>[] = [{ value: def.min }, { value: def.max }];
  for (const x of def.extras) {
    if (x.kind === "enum") for (const o of x.options) extremes.push({ [x.key]: o });
    else extremes.push({ [x.key]: x.min }, { [x.key]: x.max });
  }
  it("min, max and every extra stay finite, bounded, and fast", () => {
    for (const patch of extremes) {
      const t = performance.now();
      const { left, right } = play(withEffect(def, patch), 1);
      const ms = performance.now() - t;
      expect(allFinite(left) && allFinite(right), JSON.stringify(patch)).toBe(true);
      expect(Math.max(peak(left), peak(right)), JSON.stringify(patch)).toBeLessThanOrEqual(1);
      // A denormal stall shows as a render hundreds of times slower than usual; 1 s of audio
      // normally takes a few ms. The bound is loose on purpose (no timing flakiness).
      expect(ms, JSON.stringify(patch)).toBeLessThan(1500);
    }
  });

  it("off is bit-identical to the dry signal", () => {
    const dry = play(defaultAudioState(), 0.5);
    const s = withEffect(def);
    s.effects[def.id].enabled = false;
    const s0 = defaultAudioState();
    s0.channels = s.channels;
    const a = play(s0, 0.5);
    const b = play(s, 0.5);
    expect(same(a.left, b.left) && same(a.right, b.right)).toBe(true);
    expect(dry.left.length).toBe(a.left.length);
  });

  it("toggling while playing leaves no step larger than the signal's own", () => {
    const s = withEffect(def);
    s.effects[def.id].enabled = false;
    const e = engineWith(s);
    // Master compressor off: a level change makes it overshoot for a few ms (attack 3 ms), which
    // scales the steps; that is the compressor's nature, not a click in the effect's transition.
    e.setCompressor(false);
    e.start();
    const parts: Float32Array[] = [];
    for (let k = 0; k < 4; k++) {
      parts.push(renderFrames(e, 12000, 128).left);
      s.effects[def.id].enabled = !s.effects[def.id].enabled;
      e.apply(s);
    }
    parts.push(renderFrames(e, 12000, 128).left);
    // The signal's own largest step, measured on steady stretches with the effect off and on.
    const own = Math.max(...parts.map((p) => maxStep(p, 2400)));
    const whole = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) { whole.set(p, o); o += p.length; }
    expect(maxStep(whole, 2400)).toBeLessThanOrEqual(own * 1.05 + 1e-4);
  });
});
