// MAX_SOUND_BODY_BYTES (dsp/host/schema/preset.ts) against the preset schema: the longest state the schema
// accepts, once normalised, must fit in a share or video-export body, or a timeline the studio
// lets a person build could not be shared. Built from the catalogue, so a new effect, extra or
// step field that grows the worst case fails here first.
import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../../../dsp/host/model/catalogue";
import { MAX_DURATION_UNLIMITED_SECONDS, MAX_FREQUENCY_HZ, MAX_TIMELINE_STEPS } from "../../../../../dsp/host/model/limits";
import { MAX_SOUND_BODY_BYTES, parsePreset, presetData } from "../../../../../dsp/host/schema/preset";
import { MAX_VOICES, VOICE_LIMITS } from "../../../../../dsp/host/model/voices";
import { PRESET_NAME_MAX } from "../../../../../api/routes/presets";

/** The in-range number with the longest JSON text (16 significant digits, exponent, sign). */
function longest(min: number, max: number): number {
  const candidates = [-1.234567890123457e-7, 1.234567890123457e-7, -(max - (max - min) * 0.1234567890123457), min + (max - min) * 0.1234567890123457];
  const inRange = candidates.filter((v) => v > min && v < max);
  return inRange.sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length)[0];
}

function everyEffect(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const d of EFFECTS) {
    const fx: Record<string, unknown> = { enabled: true, value: longest(d.min, d.max) };
    for (const x of d.extras) {
      fx[x.key] = x.kind === "enum" ? [...x.options].sort((a, b) => b.length - a.length)[0] : longest(x.min, x.max);
    }
    out[d.id] = fx;
  }
  return out;
}

const channels = [1, 2, 3, 4].map((id) => ({ id, frequency: MAX_FREQUENCY_HZ - 0.01, waveform: "sawtooth", volume: longest(0, 1), enabled: true }));
/** A lone surrogate: JSON writes it as a six-character escape, the longest form of one character. */
const longText = (n: number) => "\ud800".repeat(n);

/** The voice with the longest JSON: a spin voice, every number at its longest in range. */
const voices = Array.from({ length: MAX_VOICES }, () => ({
  kind: "spin",
  colour: "brown",
  width: longest(0, VOICE_LIMITS.width),
  rate: longest(-VOICE_LIMITS.rate, VOICE_LIMITS.rate),
  amp: longest(0, VOICE_LIMITS.amp),
}));

function largestState() {
  const steps = Array.from({ length: MAX_TIMELINE_STEPS }, (_, i) => ({
    at: MAX_DURATION_UNLIMITED_SECONDS - 0.001 - i * 1.111,
    ramp: "exponential",
    label: longText(64),
    channels,
    effects: everyEffect(),
    voices,
  }));
  return { channels, effects: everyEffect(), duration: MAX_DURATION_UNLIMITED_SECONDS, timeline: { steps }, voices };
}

describe("MAX_SOUND_BODY_BYTES", () => {
  it("holds the longest normalised preset the schema accepts, with the longest name", () => {
    const parsed = parsePreset(largestState());
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.state.timeline?.steps).toHaveLength(MAX_TIMELINE_STEPS);
    const body = JSON.stringify({ name: longText(PRESET_NAME_MAX), data: presetData(parsed.state) });
    const bytes = new TextEncoder().encode(body).length;
    // Well past the 64 KiB of other JSON routes (so the test measures something real) and within the limit.
    expect(bytes).toBeGreaterThan(1_000_000);
    expect(bytes).toBeLessThanOrEqual(MAX_SOUND_BODY_BYTES);
  });
});
