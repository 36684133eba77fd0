// The suite every effect in the catalogue must pass (after Tone.js's EffectTests), run over all
// 30 catalogue entries (the catalogue is pinned to spec/studio.md section 3 first, so none can be
// skipped): switched on at its default it is really built (the output moves away from the dry
// signal); default-on renders finite audio at or below 0 dBFS; min, max and every extra stay
// finite; off is bit-identical to the dry signal; toggling while playing makes no step larger
// than the signal's own. Each effect's own signature is proved in fx/<id>.test.ts.

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EFFECTS, type EffectDef } from "../../../../dsp/host/model/catalogue";
import { defaultAudioState, type AudioState } from "../../../../dsp/host/schema/state";
import { allFinite, db, engineWith, maxStep, peak, play, renderFrames, rms, sameBits, type Stereo } from "./helpers";
import { withFx } from "./fx/helpers";

/** spec/studio.md section 3, "Effect ids seen across the studio". */
const SPEC_IDS = [
  "ringMod", "amplitudeMod", "chorus", "supersaw", "pan360", "isoPulses", "tremolo", "noise", "phaser", "shepard",
  "flanger", "pingPong", "darkAmbientGranulator", "filterEnvelope", "gate", "frequencyShifter", "harmonicExciter",
  "combFilter", "harmonizer", "acidFilter", "distortion", "reverb", "granular", "vocoder", "filterSweep", "binaural",
  "glitch", "stereoWidth", "bitcrusher", "stereoPan",
];

/** Effects that act only on a stereo signal (the channels are mono): measured on a panned tone. */
const NEEDS_STEREO = new Set(["stereoWidth"]);

/** The four default channels, one per waveform (all effects off). */
function fourWaveforms(): AudioState {
  const s = defaultAudioState();
  s.channels[1].waveform = "square";
  s.channels[2].waveform = "sawtooth";
  s.channels[3].waveform = "triangle";
  return s;
}

/** The signal an effect is compared against: the four channels, panned when `stereo`. */
function dryState(stereo: boolean): AudioState {
  const s = fourWaveforms();
  return stereo ? withFx(s, "stereoPan") : s;
}

const dryRenders = new Map<boolean, Stereo>();
function dryRender(stereo: boolean): Stereo {
  if (!dryRenders.has(stereo)) dryRenders.set(stereo, play(dryState(stereo), 0.5));
  return dryRenders.get(stereo)!;
}

function withEffect(def: EffectDef, patch: Record<string, unknown> = {}): AudioState {
  return withFx(fourWaveforms(), def.id, patch);
}

describe("the catalogue", () => {
  it("holds exactly the 30 effect ids of the spec, in the distinct wasm slots 0..29", () => {
    expect(EFFECTS.map((d) => d.id).sort()).toEqual([...SPEC_IDS].sort());
    expect(EFFECTS.map((d) => d.wasm).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("gives every effect its own test file, fx/<id>.test.ts", () => {
    const files = readdirSync(new URL("./fx", import.meta.url)).filter((f) => f.endsWith(".test.ts"));
    expect(files.sort()).toEqual(EFFECTS.map((d) => `${d.id}.test.ts`).sort());
  });
});

describe.each(EFFECTS.map((d) => [d.id, d] as const))("%s", (_id, def) => {
  it("is built: switched on at its default it moves the output at least -60 dB away from the dry signal", () => {
    const stereo = NEEDS_STEREO.has(def.id);
    const a = dryRender(stereo);
    const b = play(withFx(dryState(stereo), def.id), 0.5);
    // An effect missing from the engine's registry is ignored there: b would equal a exactly.
    const change = (x: Float32Array, y: Float32Array): number => db(rms(x.map((v, i) => v - y[i]), 4800) / rms(y, 4800));
    expect(Math.max(change(b.left, a.left), change(b.right, a.right))).toBeGreaterThan(-60);
  });

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
    expect(sameBits(a.left, b.left) && sameBits(a.right, b.right)).toBe(true);
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
