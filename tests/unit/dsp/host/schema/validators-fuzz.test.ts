// Property-based fuzzing of the pure validators the API, the studio and the CLI share:
// the preset schema (parsePreset), the timeline schema (timelineSchema, and what the engine does
// with a timeline it accepted: resolve, evaluate, compile) and the .sbg reader (parseSbg, over text
// generated from SBaGen's grammar with hostile twists). Properties: never a throw, always a result;
// what is accepted is in range, finite and a fixed point (accepting it again changes nothing); what
// is refused says why (a preset issue; .sbg errors with their line numbers).
// Seeded (FUZZ_SEED); FUZZ_RUNS scales the runs like the API fuzz files.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../../../dsp/host/model/catalogue";
import { MAX_DURATION_UNLIMITED_SECONDS, MAX_FREQUENCY_HZ, MAX_TIMELINE_STEPS, MIN_DURATION_SECONDS } from "../../../../../dsp/host/model/limits";
import { parsePreset, presetData, type PresetData } from "../../../../../dsp/host/schema/preset";
import { parseSbg } from "../../../../../dsp/host/sbg/index";
import { defaultAudioState } from "../../../../../dsp/host/schema/state";
import { compileTimeline, evaluateTimeline, resolveTimeline, timelineSchema } from "../../../../../dsp/host/schema/timeline";
import { mutationOf } from "../../../api/fuzz/arbitraries";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const SCALE = Number(process.env.FUZZ_RUNS ?? 300) / 300;
const runs = (n: number) => ({ numRuns: Math.max(10, Math.round(n * SCALE)), seed: SEED });

/** Values from JSON.parse and a little beyond (what a buggy caller might pass). */
const anyInput = fc.anything({
  maxDepth: 4,
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSparseArray: true,
  withBoxedValues: true,
});

const knownWords = ["channels", "effects", "duration", "timeline", "steps", "at", "ramp", "frequency", "volume", "enabled", "waveform", "id", "value", ...EFFECTS.map((d) => d.id)];
const base = presetData(defaultAudioState());
const withTimeline: PresetData = {
  ...base,
  timeline: {
    steps: [
      { at: 10, ramp: "linear", channels: [{ id: 1, frequency: 880, volume: 0.3 }], effects: { [EFFECTS[0].id]: { enabled: true, value: EFFECTS[0].max } } },
      { at: 20, ramp: "exponential", channels: [{ id: 2, frequency: 20, enabled: true }], label: "two" },
      { at: 30, ramp: "ease", channels: [{ id: 1, enabled: false }] },
    ],
  },
};
/** Preset-shaped input: the good ones with a place changed, or a field of anything. */
const presetish = fc.oneof(
  mutationOf(base, knownWords),
  mutationOf(withTimeline, knownWords),
  fc.record({ channels: anyInput, effects: anyInput, duration: anyInput, timeline: anyInput }, { requiredKeys: [] }),
  anyInput,
);

/** Every number inside a value, with its path. */
function numbersIn(v: unknown, path = ""): [string, number][] {
  if (typeof v === "number") return [[path, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => numbersIn(x, `${path}[${i}]`));
  if (typeof v === "object" && v !== null) return Object.entries(v).flatMap(([k, x]) => numbersIn(x, `${path}.${k}`));
  return [];
}

describe("parsePreset: any input, never a throw", () => {
  it("accepts in-range, finite, JSON-safe presets that it accepts again unchanged; refuses with a reason", () => {
    let accepted = 0;
    fc.assert(
      fc.property(presetish, (raw) => {
        const r = parsePreset(raw);
        if (!r.ok) {
          expect(typeof r.error).toBe("string");
          expect(r.error.length).toBeGreaterThan(0);
          return;
        }
        accepted++;
        const s = r.state;
        for (const [where, n] of numbersIn(s)) expect(Number.isFinite(n), where).toBe(true);
        expect(s.channels.map((c) => c.id)).toEqual([1, 2, 3, 4]);
        for (const c of s.channels) {
          expect(c.frequency).toBeGreaterThanOrEqual(0);
          expect(c.frequency).toBeLessThanOrEqual(MAX_FREQUENCY_HZ);
          expect(c.volume).toBeGreaterThanOrEqual(0);
          expect(c.volume).toBeLessThanOrEqual(1);
        }
        expect(s.duration).toBeGreaterThanOrEqual(MIN_DURATION_SECONDS);
        expect(s.duration).toBeLessThanOrEqual(MAX_DURATION_UNLIMITED_SECONDS);
        expect(Object.keys(s.effects).sort()).toEqual(EFFECTS.map((d) => d.id).sort());
        // A fixed point, also through JSON (what storing and sharing does to it).
        const again = parsePreset(JSON.parse(JSON.stringify(s)));
        expect(again).toEqual({ ok: true, state: s });
      }),
      runs(1500),
    );
    expect(accepted).toBeGreaterThan(50); // the mutations reach past the first refusal
  });
});

describe("timeline schema: any input, never a throw; accepted timelines resolve, evaluate and compile", () => {
  const stepish = fc.record(
    {
      at: fc.oneof(fc.double(), fc.integer({ min: -10, max: 50_000 }), anyInput),
      ramp: fc.oneof(fc.constantFrom("hold", "linear", "ease", "exponential", "cubic"), anyInput),
      channels: fc.oneof(
        fc.array(fc.record({ id: fc.oneof(fc.integer({ min: 0, max: 5 }), anyInput), frequency: fc.oneof(fc.double(), anyInput), volume: fc.double(), enabled: fc.boolean(), waveform: fc.constantFrom("sine", "square", "x") }, { requiredKeys: ["id"] }), { maxLength: 5 }),
        anyInput,
      ),
      effects: fc.oneof(fc.dictionary(fc.constantFrom(...knownWords, "__proto__", "toString"), fc.oneof(fc.record({ enabled: fc.boolean(), value: fc.double() }), anyInput)), anyInput),
      label: fc.oneof(fc.string({ maxLength: 70 }), anyInput),
    },
    { requiredKeys: [] },
  );
  const timelineish = fc.oneof(
    fc.record({ steps: fc.array(stepish, { maxLength: 12 }) }),
    fc.record({ steps: anyInput }),
    mutationOf(withTimeline.timeline, knownWords),
    anyInput,
  );

  it("parses or refuses; what it accepts is sorted, bounded and usable by the engine's timeline code", () => {
    let compiled = 0;
    fc.assert(
      fc.property(timelineish, fc.double({ min: -10, max: 50_000, noNaN: true }), (raw, t) => {
        const r = timelineSchema.safeParse(raw);
        if (!r.success) {
          expect(r.error.issues.length).toBeGreaterThan(0);
          return;
        }
        const steps = r.data.steps;
        expect(steps.length).toBeLessThanOrEqual(MAX_TIMELINE_STEPS);
        for (let i = 1; i < steps.length; i++) expect(steps[i].at).toBeGreaterThanOrEqual(steps[i - 1].at);
        for (const [where, n] of numbersIn(r.data)) expect(Number.isFinite(n), where).toBe(true);
        expect(timelineSchema.parse(JSON.parse(JSON.stringify(r.data)))).toEqual(r.data);
        // The engine's side: resolve against a base, evaluate anywhere, compile to segments.
        const resolved = resolveTimeline(base, r.data);
        const point = evaluateTimeline(resolved, t);
        for (const [where, n] of numbersIn(point)) expect(Number.isFinite(n), where).toBe(true);
        const engine = compileTimeline(resolved, 48000);
        for (const [where, n] of numbersIn(engine.channels)) expect(Number.isFinite(n) || n === Infinity, where).toBe(true);
        compiled++;
      }),
      runs(1500),
    );
    expect(compiled).toBeGreaterThan(50);
  });
});

// ---- .sbg -------------------------------------------------------------------------------------

const NAMES = ["a", "b", "alpha", "off", "alloff", "wave01", "blk", "x-y_z"] as const;
const num = fc.oneof(
  fc.constantFrom("0", "1", "4", "10", "40", "41", "0.5", ".5", "1.", "200", "20000", "20001", "99999999999999999999", "1e3", "-3", ""),
  fc.integer({ min: 0, max: 2000 }).map(String),
);
const tone = fc.oneof(
  fc.tuple(num, fc.constantFrom("+", "-"), num, num).map(([c, s, b, a]) => `${c}${s}${b}/${a}`),
  fc.tuple(num, num).map(([c, a]) => `${c}/${a}`),
  fc.tuple(num, num, num).map(([c, p, a]) => `${c}@${p}/${a}`),
  fc.tuple(fc.constantFrom("pink", "white", "brown"), num).map(([n, a]) => `${n}/${a}`),
  fc.constantFrom("-", "bell+200/10", "mix/50", "wave01:200+4/50", "spin:300+4.2/80", "bspin:1+1/1", "mixspin:1", "??", "200+4", "/"),
);
const clockTime = fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 70 }), fc.option(fc.integer({ min: 0, max: 70 }))).map(
  ([h, m, s]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}${s === null ? "" : `:${String(s).padStart(2, "0")}`}`,
);
const timeSpec = fc.oneof(
  fc.constant("NOW"),
  clockTime.map((c) => `NOW+${c}`),
  clockTime,
  clockTime.map((c) => `+${c}`),
  fc.tuple(clockTime, clockTime).map(([a, b]) => `${a}+${b}`),
  fc.constantFrom("NOW+", "+", "12:00+", "NOWNOW", "24:00", "1:2:3:4"),
);
const timeLine = fc
  .tuple(timeSpec, fc.option(fc.constantFrom("==", "<>", "-<", "=>", "--", "<<", "x")), fc.constantFrom(...NAMES, ""), fc.option(fc.constantFrom("->", "-> x", "junk")))
  .map(([t, mark, name, tail]) => [t, mark, name, tail].filter((w) => w !== null && w !== "").join(" "));
const blockLine = fc.tuple(clockTime, fc.constantFrom(...NAMES)).map(([t, n]) => `  +${t} ${n}`);
const sbgLine = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.array(tone, { minLength: 0, maxLength: 6 })).map(([n, ts]) => `${n}: ${ts.join(" ")}`) },
  { weight: 4, arbitrary: timeLine },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.array(blockLine, { maxLength: 4 }), fc.boolean()).map(([n, ls, closed]) => [`${n}: {`, ...ls, closed ? "}" : ""].join("\n")) },
  { weight: 1, arbitrary: fc.constantFrom("-SE", "-F 300", "-F", "-F -1", "-L 00:10", "-L 99:99", "-L", "-T 12:00", "-i", "-p", "-x", "-SEQ -F 0", "-m file.ogg") },
  { weight: 1, arbitrary: fc.constantFrom("# comment", "## title", "", "   ", "\t", "}", "{", "\uFEFFNOW a", "a:", ":", "a: {", "NOW a # trailing") },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);
/** A program that mostly reads: options, tone-sets, maybe blocks (calling anything, themselves
 *  included), time lines over the defined names; then a few of its lines replaced by anything. */
const goodTone = fc.oneof(
  fc.tuple(fc.integer({ min: 40, max: 1500 }), fc.constantFrom(4, 10), fc.integer({ min: 0, max: 60 })).map(([c, b, a]) => `${c}-${b}/${a}`),
  fc.tuple(fc.integer({ min: 40, max: 1500 }), fc.integer({ min: 1, max: 60 })).map(([c, a]) => `${c}/${a}`),
  fc.tuple(fc.constantFrom("pink", "white", "brown"), fc.integer({ min: 0, max: 60 })).map(([n, a]) => `${n}/${a}`),
);
const program = fc
  .record({
    options: fc.subarray(["-SE", "-F 300", "-L 00:20", "-E", "-F 20"], { maxLength: 2 }),
    sets: fc.array(fc.tuple(fc.constantFrom("a", "b", "alpha"), fc.array(goodTone, { minLength: 1, maxLength: 2 })), { minLength: 1, maxLength: 3 }),
    blocks: fc.array(fc.tuple(fc.constantFrom("blk", "b2"), fc.array(fc.constantFrom("a", "b", "alpha", "off", "blk", "b2"), { minLength: 1, maxLength: 4 })), { maxLength: 2 }),
    times: fc.array(fc.tuple(fc.constantFrom("a", "b", "alpha", "off", "alloff", "blk", "b2"), fc.integer({ min: 0, max: 40 }), fc.constantFrom("", "", " ->", " ==", " <>")), { minLength: 1, maxLength: 8 }),
    clock: fc.boolean(),
    junk: fc.array(fc.tuple(fc.nat(), sbgLine), { maxLength: 2 }),
  })
  .map(({ options, sets, blocks, times, clock: clockTimes, junk }) => {
    const lines = [...options];
    for (const [name, tones] of sets) lines.push(`${name}: ${tones.join(" ")}`);
    for (const [name, calls] of blocks) lines.push(`${name}: {`, ...calls.map((c, i) => `  +00:0${i} ${c}`), "}");
    let minute = 0;
    times.forEach(([name, gap, mark], i) => {
      minute += gap;
      const at = clockTimes ? `${String(Math.floor(minute / 60) % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}` : i === 0 ? "NOW" : `NOW+00:${String(minute % 60).padStart(2, "0")}`;
      const fade = mark === " ==" || mark === " <>" ? mark : "";
      lines.push(`${at}${fade} ${name}${mark === " ->" ? " ->" : ""}`);
    });
    for (const [at, line] of junk) lines.splice(at % (lines.length + 1), 0, line);
    return lines.join("\n");
  });
const sbgText = fc.oneof(
  { weight: 3, arbitrary: program },
  { weight: 1, arbitrary: fc.tuple(fc.array(sbgLine, { maxLength: 25 }), fc.constantFrom("\n", "\r\n", "\r")).map(([lines, nl]) => lines.join(nl)) },
);

describe("parseSbg: any text, never a throw", () => {
  it("reads a session the preset schema keeps as it is, or errors with their lines", () => {
    let sessions = 0;
    fc.assert(
      fc.property(fc.oneof({ weight: 6, arbitrary: sbgText }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) }), (text) => {
        const lineCount = text.split(/\r\n|\r|\n/).length;
        const r = parseSbg(text);
        for (const w of r.warnings) {
          expect(w.line).toBeGreaterThanOrEqual(0);
          expect(w.line).toBeLessThanOrEqual(lineCount);
        }
        if (!r.ok) {
          expect(r.errors.length).toBeGreaterThan(0);
          for (const e of r.errors) {
            expect(e.line).toBeGreaterThanOrEqual(0);
            expect(e.line).toBeLessThanOrEqual(lineCount);
            expect(e.message.length).toBeGreaterThan(0);
          }
          return;
        }
        sessions++;
        expect(parsePreset(r.session)).toEqual({ ok: true, state: r.session });
      }),
      runs(2500),
    );
    expect(sessions).toBeGreaterThan(20);
  });

  it("never throws on non-text input", () => {
    fc.assert(
      fc.property(anyInput, (v) => {
        const r = parseSbg(v as string);
        expect(typeof r.ok).toBe("boolean");
      }),
      runs(300),
    );
  });
});
