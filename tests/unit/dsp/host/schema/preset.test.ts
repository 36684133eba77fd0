// The one preset validation (dsp/host/schema/preset.ts) shared by the API, the studio and the CLI, and the
// ?config= codec: missing or falsy fields are invalid, unknown effect ids are dropped, values are
// clamped to the catalogue, any input gives a valid state or a clear error and never an exception.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../../../dsp/host/model/catalogue";
import { MAX_DURATION_UNLIMITED_SECONDS, MAX_FREQUENCY_HZ, MIN_DURATION_SECONDS } from "../../../../../dsp/host/model/limits";
import {
  MAX_CONFIG_LENGTH, decodeConfig, decodeConfigJson, encodeConfig, parsePreset, presetData, type PresetData, type PresetResult,
} from "../../../../../dsp/host/schema/preset";
import { audioStateSchema, defaultAudioState } from "../../../../../dsp/host/schema/state";

const base = (): PresetData => presetData(defaultAudioState());

function ok(result: PresetResult): PresetData {
  if (!result.ok) throw new Error(`expected a valid preset, got: ${result.error}`);
  return result.state;
}

function error(result: PresetResult): string {
  if (result.ok) throw new Error("expected an invalid preset");
  return result.error;
}

/** Every rule of the schema holds for a parsed state. */
function expectInRange(state: PresetData) {
  expect(audioStateSchema.safeParse(state).success).toBe(true);
  expect(state.channels.map((c) => c.id)).toEqual([1, 2, 3, 4]);
  for (const c of state.channels) {
    expect(c.frequency).toBeGreaterThanOrEqual(0);
    expect(c.frequency).toBeLessThanOrEqual(MAX_FREQUENCY_HZ);
    expect(Math.round(c.frequency * 100) / 100).toBe(c.frequency);
  }
  expect(Object.keys(state.effects).sort()).toEqual(EFFECTS.map((d) => d.id).sort());
  for (const def of EFFECTS) {
    const fx = state.effects[def.id];
    expect(typeof fx.enabled).toBe("boolean");
    expect(fx.value).toBeGreaterThanOrEqual(def.min);
    expect(fx.value).toBeLessThanOrEqual(def.max);
    expect(Object.keys(fx).sort()).toEqual(["enabled", "value", ...def.extras.map((x) => x.key)].sort());
    for (const x of def.extras) {
      if (x.kind === "enum") expect(x.options).toContain(fx[x.key]);
      else {
        expect(fx[x.key]).toBeGreaterThanOrEqual(x.min);
        expect(fx[x.key]).toBeLessThanOrEqual(x.max);
      }
    }
  }
  expect(state.duration).toBeGreaterThanOrEqual(MIN_DURATION_SECONDS);
  expect(state.duration).toBeLessThanOrEqual(MAX_DURATION_UNLIMITED_SECONDS);
}

describe("parsePreset: what is invalid", () => {
  it("accepts the studio's own state unchanged", () => {
    expect(ok(parsePreset(base()))).toEqual(base());
    expect(ok(parsePreset({ ...defaultAudioState(), isPlaying: true, name: "x" }))).toEqual(base());
  });

  it.each(["channels", "effects", "duration"] as const)("%s missing or falsy is invalid", (field) => {
    for (const falsy of [undefined, null, false, 0, ""]) {
      const input: Record<string, unknown> = { ...base(), [field]: falsy };
      if (falsy === undefined) delete input[field];
      expect(error(parsePreset(input))).toBe(`${field} is missing`);
    }
  });

  it("a value that is not a preset object is invalid", () => {
    for (const v of [null, undefined, 0, 1, "preset", true, [], [base()]]) {
      expect(error(parsePreset(v))).toBe("the preset must be an object with channels, effects and duration");
    }
  });

  it("wrong types name the field", () => {
    const ch = base().channels;
    expect(error(parsePreset({ ...base(), channels: "432" }))).toBe("channels must be a list of channels");
    expect(error(parsePreset({ ...base(), channels: [] }))).toBe("channels must hold 1 to 4 channels");
    expect(error(parsePreset({ ...base(), channels: [...ch, { ...ch[0], id: 5 }] }))).toBe("channels must hold 1 to 4 channels");
    expect(error(parsePreset({ ...base(), channels: [ch[0], ch[0]] }))).toBe("channels must not repeat a channel id");
    expect(error(parsePreset({ ...base(), channels: [{ ...ch[0], frequency: "440" }] }))).toBe("channels[0].frequency must be a number");
    expect(error(parsePreset({ ...base(), channels: [ch[0], { ...ch[1], id: 9 }] }))).toBe("channels[1].id must be a whole number from 1 to 4");
    expect(error(parsePreset({ ...base(), channels: [{ ...ch[0], id: 1.5 }] }))).toBe("channels[0].id must be a whole number from 1 to 4");
    expect(error(parsePreset({ ...base(), channels: [{ ...ch[0], enabled: "yes" }] }))).toBe("channels[0].enabled must be true or false");
    expect(error(parsePreset({ ...base(), channels: [7] }))).toBe("channels[0] must be an object");
    expect(error(parsePreset({ ...base(), effects: [1] }))).toBe("effects must be an object of effects");
    expect(error(parsePreset({ ...base(), effects: { ringMod: true } }))).toBe("effects.ringMod must be an object");
    expect(error(parsePreset({ ...base(), effects: { ringMod: { enabled: true, value: "65" } } }))).toBe("effects.ringMod.value must be a number");
    expect(error(parsePreset({ ...base(), effects: { noise: { color: null } } }))).toBe("effects.noise.color must be a number");
    expect(error(parsePreset({ ...base(), duration: "300" }))).toBe("duration must be a number");
    expect(error(parsePreset({ ...base(), duration: Number.POSITIVE_INFINITY }))).toBe("duration must be a number");
  });
});

describe("parsePreset: what is made to fit", () => {
  it("drops unknown effect ids and extra keys; effects left out are off at their defaults", () => {
    const state = ok(parsePreset({ ...base(), effects: { warpDrive: { enabled: true, value: 9 }, ringMod: { enabled: true, value: 40, colour: "red" } } }));
    expect(state.effects.warpDrive).toBeUndefined();
    expect(state.effects.ringMod).toEqual({ enabled: true, value: 40 });
    expect(state.effects.noise).toEqual({ enabled: false, value: 20, type: "white", color: 0, density: 50 });
    expectInRange(state);
  });

  it("prototype-looking keys are plain data", () => {
    const state = ok(parsePreset(JSON.parse(`{"channels":[{"id":1,"frequency":440}],"duration":60,"effects":{"__proto__":{"enabled":true},"constructor":{"value":1}}}`)));
    expect(Object.getPrototypeOf(state.effects)).toBe(Object.prototype);
    expect(Object.keys(state.effects)).not.toContain("constructor");
  });

  it("clamps every effect's value to its catalogue range", () => {
    for (const def of EFFECTS) {
      const lo = ok(parsePreset({ ...base(), effects: { [def.id]: { enabled: true, value: def.min - 1000 } } }));
      const hi = ok(parsePreset({ ...base(), effects: { [def.id]: { enabled: true, value: def.max + 1000 } } }));
      const mid = ok(parsePreset({ ...base(), effects: { [def.id]: { value: def.default } } }));
      expect([lo.effects[def.id].value, hi.effects[def.id].value, mid.effects[def.id].value]).toEqual([def.min, def.max, def.default]);
      expect(mid.effects[def.id].enabled).toBe(false);
    }
  });

  it("clamps number extras and replaces unknown enum options with the default", () => {
    const state = ok(parsePreset({
      ...base(),
      effects: {
        noise: { enabled: true, value: 50, type: "blue", color: -500, density: 1e6 },
        shepard: { enabled: true, value: 1, direction: 3, octaves: 99 },
        pingPong: { enabled: true, value: 0.5, feedback: 2, mix: -1 },
      },
    }));
    expect(state.effects.noise).toEqual({ enabled: true, value: 50, type: "white", color: -100, density: 100 });
    expect(state.effects.shepard).toEqual({ enabled: true, value: 1, direction: "up", octaves: 8 });
    expect(state.effects.pingPong).toEqual({ enabled: true, value: 0.5, feedback: 0.9, mix: 0 });
    expect(ok(parsePreset({ ...base(), effects: { noise: { type: "brown" } } })).effects.noise.type).toBe("brown");
  });

  it("clamps frequencies to 0..MAX_FREQUENCY_HZ (2 decimals), volume to 0..1; unknown waveforms become sine", () => {
    const state = ok(parsePreset({
      ...base(),
      channels: [
        { id: 1, frequency: -5, waveform: "square", enabled: true },
        { id: 2, frequency: 1e9, waveform: "zigzag", volume: 7 },
        { id: 3, frequency: 432.123456, waveform: "triangle", volume: -1, enabled: false },
      ],
    }));
    expect(state.channels).toEqual([
      { id: 1, frequency: 0, waveform: "square", volume: 0.5, enabled: true },
      { id: 2, frequency: MAX_FREQUENCY_HZ, waveform: "sine", volume: 1, enabled: true },
      { id: 3, frequency: 432.12, waveform: "triangle", volume: 0, enabled: false },
      { id: 4, frequency: 0, waveform: "sine", volume: 0.5, enabled: false },
    ]);
  });

  it("orders channels by id and switches off the ids a preset leaves out", () => {
    const state = ok(parsePreset({ ...base(), channels: [{ id: 3, frequency: 528 }, { id: 1, frequency: 40 }] }));
    expect(state.channels.map((c) => [c.id, c.frequency, c.enabled])).toEqual([[1, 40, true], [2, 0, false], [3, 528, true], [4, 0, false]]);
  });

  it("clamps the duration to the limits and rounds it to whole seconds", () => {
    expect(ok(parsePreset({ ...base(), duration: 1 })).duration).toBe(MIN_DURATION_SECONDS);
    expect(ok(parsePreset({ ...base(), duration: -20 })).duration).toBe(MIN_DURATION_SECONDS);
    expect(ok(parsePreset({ ...base(), duration: 1e9 })).duration).toBe(MAX_DURATION_UNLIMITED_SECONDS);
    expect(ok(parsePreset({ ...base(), duration: 299.6 })).duration).toBe(300);
  });
});

// ---- properties --------------------------------------------------------------------------------
const effectIds = fc.constantFrom(...EFFECTS.map((d) => d.id), "unknownFx", "__proto__", "toString");
const anyScalar = fc.oneof(fc.double(), fc.integer(), fc.string({ maxLength: 8 }), fc.boolean(), fc.constant(null), fc.constantFrom("sine", "square", "pink", "down"));
const wide = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
/** A value that is usually of the right type and sometimes anything at all. */
const mostly = <T,>(good: fc.Arbitrary<T>, weight = 8) => fc.oneof({ arbitrary: good, weight }, { arbitrary: anyScalar, weight: 1 });
const rarely = <T,>(good: fc.Arbitrary<T>) => mostly(good, 40);
const effectLike = fc.record(
  {
    enabled: rarely(fc.boolean()), value: rarely(wide), type: rarely(fc.constantFrom("white", "pink", "brown", "blue")), color: rarely(wide),
    density: rarely(wide), direction: rarely(fc.constantFrom("up", "down", "sideways")), octaves: rarely(wide), feedback: rarely(wide), mix: rarely(wide), junk: anyScalar,
  },
  { requiredKeys: [] },
);
/** Mostly preset-shaped values, so the deep paths (clamping, filling) run, not only the type errors. */
const presetLike = fc.record(
  {
    channels: mostly(
      fc.uniqueArray(
        fc.record(
          { id: mostly(fc.integer({ min: 1, max: 4 })), frequency: mostly(wide), waveform: anyScalar, volume: mostly(wide), enabled: mostly(fc.boolean()) },
          { requiredKeys: ["id", "frequency"] },
        ),
        { maxLength: 5, selector: (c) => c.id },
      ),
    ),
    effects: mostly(fc.dictionary(effectIds, rarely(effectLike), { maxKeys: 6 })),
    duration: mostly(wide),
  },
  { requiredKeys: ["channels", "effects", "duration"] },
);

describe("parsePreset properties (fast-check)", () => {
  it("any JSON value: never throws; a valid, in-range state or a clear one-line error", () => {
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), presetLike, fc.anything()), (input) => {
        const result = parsePreset(input);
        if (result.ok) {
          valid++;
          expectInRange(result.state);
          // normalising is idempotent: a parsed state parses to itself
          expect(ok(parsePreset(result.state))).toEqual(result.state);
        } else {
          expect(result.error).toMatch(/^[\w[\].$]+.* (is missing|must .+)$/);
          expect(result.error).not.toContain("\n");
        }
      }),
      { numRuns: 3000 },
    );
    expect(valid).toBeGreaterThan(150);
  });
});

// ---- the ?config= codec ------------------------------------------------------------------------
const toStandard = (json: string) => Buffer.from(json, "utf8").toString("base64");

describe("config codec", () => {
  it("round-trips the studio state in the URL-safe alphabet without padding", () => {
    const state = base();
    state.channels[1] = { ...state.channels[1], frequency: 7.83, waveform: "sawtooth" };
    state.effects.noise = { ...state.effects.noise, enabled: true, type: "pink" };
    const text = encodeConfig(state);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(ok(decodeConfig(text))).toEqual(state);
    expect(new URLSearchParams(`config=${text}`).get("config")).toBe(text);
  });

  it("round-trips any valid state", () => {
    fc.assert(
      fc.property(presetLike, (input) => {
        const parsed = parsePreset(input);
        if (parsed.ok) expect(ok(decodeConfig(encodeConfig(parsed.state)))).toEqual(parsed.state);
      }),
      { numRuns: 300 },
    );
  });

  it("accepts standard base64 with padding, '+' read as a space, percent-encoding and line breaks", () => {
    const json = JSON.stringify({ ...base(), note: "???>>> ünïcode" });
    const std = toStandard(json);
    expect(std).toMatch(/[+/]/);
    expect(std.endsWith("=")).toBe(true);
    const urlSafe = std.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    for (const form of [std, urlSafe, std.replace(/\+/g, " "), encodeURIComponent(std), `${std.slice(0, 40)}\n${std.slice(40)}`, ` ${urlSafe} `]) {
      expect(ok(decodeConfig(form))).toEqual(base());
    }
    expect(decodeConfigJson(urlSafe)).toEqual({ ok: true, json: JSON.parse(json) });
  });

  it("bad input gives the error text, not an exception", () => {
    expect(decodeConfig("")).toEqual({ ok: false, error: "it is empty" });
    expect(decodeConfig("not base64!")).toEqual({ ok: false, error: "it is not base64" });
    expect(decodeConfig("%E0%A4%A")).toEqual({ ok: false, error: "it is not base64" });
    expect(decodeConfig("abcde")).toEqual({ ok: false, error: "it is not base64" });
    expect(decodeConfig(toStandard("{ channels: "))).toEqual({ ok: false, error: "it does not decode to JSON" });
    expect(decodeConfig(Buffer.from([0xff, 0xfe, 0x7b]).toString("base64"))).toEqual({ ok: false, error: "it does not decode to JSON" });
    expect(decodeConfig(toStandard("{}"))).toEqual({ ok: false, error: "channels is missing" });
    expect(decodeConfig(toStandard(JSON.stringify({ ...base(), duration: 0 })))).toEqual({ ok: false, error: "duration is missing" });
    expect(decodeConfig("A".repeat(MAX_CONFIG_LENGTH + 4))).toEqual({ ok: false, error: "it is too long" });
  });

  it("any string never throws", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.base64String(), fc.jsonValue().map((v) => toStandard(JSON.stringify(v)))), (text) => {
        const result = decodeConfig(text);
        expect(typeof (result.ok ? result.state : result.error)).toBe(result.ok ? "object" : "string");
      }),
      { numRuns: 2000 },
    );
  });
});
