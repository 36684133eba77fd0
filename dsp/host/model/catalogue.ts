// THE effect catalogue: the single source of truth for the effects grid (name, unit, range,
// step, description), preset validation (dsp/host/schema/state.ts) and the DSP (wasm slot, extras order).
//
// `wasm` is the effect's slot: its position in dsp/assembly/fx/registry.ts, whose order the chain
// runs (tone generators first, then modulation, filters, time effects, space). The array itself
// is in the studio's display order (spec/studio.md section 3). Extras are passed to the engine as
// e1..e3 in the order listed here; enum extras are passed as the option's index.
// Values the spec gives are used as they are; where the spec is silent, `chosen` says what was
// chosen (a range and default a sound designer would expect). Descriptions are shown to users.

export type EffectUnit = "Hz" | "kHz" | "%" | "s" | "ms" | "-bit" | "";

export interface NumberExtra {
  key: string;
  label: string;
  kind: "number";
  min: number;
  max: number;
  step: number;
  default: number;
}

export interface EnumExtra {
  key: string;
  label: string;
  kind: "enum";
  options: readonly string[];
  default: string;
}

export type EffectExtra = NumberExtra | EnumExtra;

export interface EffectDef {
  id: string;
  name: string;
  description: string;
  unit: EffectUnit;
  min: number;
  max: number;
  step: number;
  default: number;
  extras: readonly EffectExtra[];
  wasm: number;
  /** What was chosen where the spec gives no range or default (documentation, not shown). */
  chosen?: string;
}

const num = (key: string, label: string, min: number, max: number, step: number, def: number): NumberExtra =>
  ({ key, label, kind: "number", min, max, step, default: def });

export const EFFECTS = [
  { id: "ringMod", name: "Ring Mod", description: "Multiplies the tone by a 30 Hz modulator: metallic sidebands at f ± 30 Hz. Value is the wet mix.", unit: "%", min: 0, max: 100, step: 1, default: 65, extras: [], wasm: 8 },
  { id: "amplitudeMod", name: "Amplitude Mod", description: "Full-depth sine amplitude modulation at the set rate.", unit: "Hz", min: 0.1, max: 20, step: 0.1, default: 5, extras: [], wasm: 7 },
  { id: "chorus", name: "Chorus", description: "Three modulated delay voices thicken the tone. Value is the depth.", unit: "%", min: 0, max: 100, step: 1, default: 30, extras: [], wasm: 21 },
  { id: "supersaw", name: "Supersaw", description: "Five detuned sawtooth voices per channel, spread up to half the value in cents; negative values spread downward.", unit: "", min: -100, max: 100, step: 1, default: 50, extras: [], wasm: 1 },
  { id: "pan360", name: "360° Pan", description: "Moves the sound around the head at the set rate.", unit: "Hz", min: 0.1, max: 20, step: 0.1, default: 2, extras: [], wasm: 27 },
  { id: "isoPulses", name: "Isochronic Pulses", description: "Gates the tone on and off at the set rate with smooth edges.", unit: "Hz", min: 0.1, max: 12, step: 0.1, default: 6, extras: [], wasm: 9 },
  { id: "tremolo", name: "Tremolo", description: "Gentle volume wobble (depth 50%) at the set rate.", unit: "Hz", min: 0.1, max: 20, step: 0.1, default: 4, extras: [], wasm: 6 },
  {
    id: "noise", name: "Noise", description: "Adds white, pink or brown noise under the tone. Color tilts it darker or brighter; density thins it from smooth noise to sparse crackle.", unit: "%", min: 0, max: 100, step: 5, default: 20,
    extras: [
      { key: "type", label: "Type", kind: "enum", options: ["white", "pink", "brown"], default: "white" },
      num("color", "Color", -100, 100, 1, 0),
      num("density", "Density", 0, 100, 1, 50),
    ],
    wasm: 4,
  },
  { id: "phaser", name: "Phaser", description: "Eight all-pass stages swept by an LFO at the set rate.", unit: "Hz", min: 0.1, max: 10, step: 0.1, default: 2, extras: [], wasm: 19 },
  {
    id: "shepard", name: "Shepard Tone", description: "Endlessly rising or falling octave layers around each channel.", unit: "Hz", min: 0.1, max: 5, step: 0.1, default: 1,
    extras: [
      { key: "direction", label: "Direction", kind: "enum", options: ["up", "down"], default: "up" },
      num("octaves", "Octaves", 1, 8, 1, 5),
    ],
    wasm: 2,
  },
  { id: "flanger", name: "Flanger", description: "A short swept delay with feedback 0.6 at the set rate.", unit: "Hz", min: 0.1, max: 10, step: 0.1, default: 0.5, extras: [], wasm: 20 },
  {
    id: "pingPong", name: "Ping Pong Delay", description: "Echoes bounce left (the set time) and right (1.5 times it).", unit: "s", min: 0.05, max: 2, step: 0.05, default: 0.25,
    extras: [num("feedback", "Feedback", 0, 0.9, 0.05, 0.4), num("mix", "Mix", 0, 1, 0.05, 0.5)],
    wasm: 25,
  },
  { id: "darkAmbientGranulator", name: "Dark Ambient Granulator", description: "Sixteen delay lines of 5-500 ms smear the tone into a dark cloud.", unit: "%", min: 0, max: 100, step: 1, default: 50, extras: [], wasm: 24 },
  { id: "filterEnvelope", name: "Filter Envelope", description: "A low-pass filter opens and closes at the set rate.", unit: "Hz", min: 0.1, max: 10, step: 0.1, default: 2, extras: [], wasm: 16 },
  { id: "gate", name: "Gate", description: "Rhythmic hard gate at the set rate.", unit: "Hz", min: 0.5, max: 16, step: 0.5, default: 4, extras: [], wasm: 10 },
  { id: "frequencyShifter", name: "Frequency Shifter", description: "Shifts every partial by the same number of hertz (single sideband).", unit: "Hz", min: -500, max: 500, step: 1, default: 50, extras: [], wasm: 11 },
  { id: "harmonicExciter", name: "Harmonic Exciter", description: "Adds bright upper harmonics.", chosen: "0-100 %", unit: "%", min: 0, max: 100, step: 1, default: 50, extras: [], wasm: 12 },
  { id: "combFilter", name: "Comb Filter", description: "A feedback comb (0.7) with the set delay: peaks every 1/delay Hz, notches halfway between.", unit: "ms", min: 0.1, max: 20, step: 0.1, default: 5, extras: [], wasm: 18 },
  { id: "harmonizer", name: "Harmonizer", description: "Adds harmonics 2-5 of each channel at gain 0.2/n, scaled by the value.", unit: "%", min: 0, max: 100, step: 1, default: 50, extras: [], wasm: 3 },
  { id: "acidFilter", name: "Acid Filter", description: "A resonant low-pass swept at the set rate.", unit: "Hz", min: 0.1, max: 20, step: 0.1, default: 1.5, extras: [], wasm: 15 },
  { id: "distortion", name: "Distortion", description: "Soft-clipping drive, level-compensated.", chosen: "0-100 %, default 30", unit: "%", min: 0, max: 100, step: 1, default: 30, extras: [], wasm: 13 },
  { id: "reverb", name: "Reverb", description: "Room reverb; decay time is value/30 seconds.", chosen: "0-100 %, default 50", unit: "%", min: 0, max: 100, step: 1, default: 50, extras: [], wasm: 26 },
  { id: "granular", name: "Granular", description: "Re-plays short grains of the sound.", chosen: "grain 5-500 ms, default 80", unit: "ms", min: 5, max: 500, step: 5, default: 80, extras: [], wasm: 23 },
  { id: "vocoder", name: "Vocoder", description: "The channel mix speaks through a built-in voice that keeps saying a-e-i-o-u (16-band vocoder).", chosen: "0-100 % mix, default 50", unit: "%", min: 0, max: 100, step: 1, default: 50, extras: [], wasm: 5 },
  { id: "filterSweep", name: "Filter Sweep", description: "A low-pass slowly sweeps up to the set cutoff.", chosen: "0.2-20 kHz, default 4", unit: "kHz", min: 0.2, max: 20, step: 0.1, default: 4, extras: [], wasm: 17 },
  { id: "binaural", name: "Binaural Beat", description: "Left and right ears hear frequencies that differ by the set beat.", chosen: "0.5-40 Hz, default 10", unit: "Hz", min: 0.5, max: 40, step: 0.5, default: 10, extras: [], wasm: 0 },
  { id: "glitch", name: "Glitch", description: "Random stutters and drop-outs at the set rate.", chosen: "0.5-20 Hz, default 4", unit: "Hz", min: 0.5, max: 20, step: 0.5, default: 4, extras: [], wasm: 22 },
  { id: "stereoWidth", name: "Stereo Width", description: "Mid/side width: 0% mono, 100% unchanged, 200% extra wide.", chosen: "default 150", unit: "%", min: 0, max: 200, step: 1, default: 150, extras: [], wasm: 29 },
  { id: "bitcrusher", name: "Bitcrusher", description: "Reduces the resolution to the set bit depth.", chosen: "1-16 bits, default 8", unit: "-bit", min: 1, max: 16, step: 1, default: 8, extras: [], wasm: 14 },
  { id: "stereoPan", name: "Stereo Pan", description: "Places the sound between left (-100) and right (100).", chosen: "default 30", unit: "", min: -100, max: 100, step: 1, default: 30, extras: [], wasm: 28 },
] as const satisfies readonly EffectDef[];

const byId = new Map<string, EffectDef>(EFFECTS.map((e) => [e.id, e]));

export function effectDef(id: string): EffectDef | undefined {
  return byId.get(id);
}

/** Engine arguments e1..e3 for an effect's extras (enums as option index, missing as default). */
export function extrasToArgs(def: EffectDef, extras: Record<string, unknown>): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  def.extras.forEach((x, i) => {
    if (i > 2) return;
    const v = extras[x.key];
    if (x.kind === "enum") {
      const k = typeof v === "string" ? x.options.indexOf(v) : -1;
      out[i] = k >= 0 ? k : x.options.indexOf(x.default);
    } else {
      out[i] = typeof v === "number" && Number.isFinite(v) ? Math.min(x.max, Math.max(x.min, v)) : x.default;
    }
  });
  return out;
}
