// readSbgVoices (dsp/host/sbg/voices.ts): SBaGen schedules as SBaGen plays them, in voices. The 19
// published examples (../shared/reference/sbagen/examples, beside the repository) and the fixtures
// read; each construct gives the voices and steps SBaGen's rules say; toSbg writes the sessions back
// as tone-sets of voices that read back the same.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Voice, VoiceSlots } from "../../../../../dsp/host/model/voices";
import { readSbgVoices, toSbg } from "../../../../../dsp/host/sbg/index";
import { parsePreset } from "../../../../../dsp/host/schema/preset";

const REPO = fileURLToPath(new URL("../../../../../", import.meta.url));
const EXAMPLES = `${REPO}../shared/reference/sbagen/examples/`;
const FIXTURES = `${REPO}tests/fixtures/sbg/`;
const HAVE_EXAMPLES = existsSync(EXAMPLES);
const list = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".sbg")).sort().map((f) => dir + f);
const EXAMPLE_FILES = HAVE_EXAMPLES ? list(EXAMPLES) : [];
/** Fixtures that are not schedules SBaGen plays (their errors are the point). */
const ERROR_FIXTURES = ["errors.sbg", "option-errors.sbg"];

function read(text: string) {
  const r = readSbgVoices(text);
  if (!r.ok) throw new Error(`expected a session, got ${JSON.stringify(r.errors)}`);
  return r;
}
/** Steps as [at, ramp, voices]. */
const steps = (text: string) => (read(text).session.timeline?.steps ?? []).map((s) => [s.at, s.ramp, s.voices] as const);
const voicesAt = (text: string, at: number): VoiceSlots => {
  const list = read(text).session.timeline!.steps.filter((s) => s.at <= at);
  return list[list.length - 1].voices!;
};

describe.skipIf(!HAVE_EXAMPLES)("readSbgVoices: the published examples (../shared/reference/sbagen/examples)", () => {
  it("has the 19 examples and reads every one without an error, into a session the schema keeps", () => {
    expect(EXAMPLE_FILES).toHaveLength(19);
    for (const f of EXAMPLE_FILES) {
      const r = readSbgVoices(readFileSync(f, "utf8"));
      const name = f.slice(EXAMPLES.length);
      expect(r.ok ? [] : r.errors, name).toEqual([]);
      if (!r.ok) continue;
      const checked = parsePreset(r.session);
      expect(checked.ok && checked.state, name).toEqual(r.session);
      expect(r.session.channels.every((c) => !c.enabled), name).toBe(true);
    }
  });

  it("the chakras program (24 h of 3-minute change-overs, cut at 12 h) fits the timeline: 962 steps", () => {
    const r = read(readFileSync(`${EXAMPLES}sbagen-alsa__basics_prog-chakras-1.sbg`, "utf8"));
    expect(r.session.timeline?.steps.length).toBe(962);
    expect(r.session.duration).toBe(43200);
  });
});

describe.skipIf(HAVE_EXAMPLES)("readSbgVoices: the published examples", () => {
  it.skip("need ../shared/reference/sbagen/examples beside the repository (not found here)", () => {});
});

describe("readSbgVoices: voices", () => {
  it("200+10/50 is a binaural voice with a signed beat, pink/20 a noise; no ear warning", () => {
    const r = read("alpha: 200+10/50 pink/20 300-4/10\nNOW alpha\n");
    expect(r.session.voices).toEqual([
      { kind: "binaural", carrier: 200, beat: 10, amp: 50 },
      { kind: "noise", colour: "pink", amp: 20 },
      { kind: "binaural", carrier: 300, beat: -4, amp: 10 },
    ]);
    expect(r.warnings).toEqual([]);
    expect(r.session.duration).toBe(300);
  });

  it("a set of several binaural voices keeps each one's beat; '-' keeps a slot empty; 0 Hz is accepted", () => {
    expect(read("s: 100+1.5/30 - 600+4.9/5 0/10\nNOW s\n").session.voices).toEqual([
      { kind: "binaural", carrier: 100, beat: 1.5, amp: 30 },
      null,
      { kind: "binaural", carrier: 600, beat: 4.9, amp: 5 },
      { kind: "tone", carrier: 0, amp: 10 },
    ]);
  });

  it("isochronic, spin (pink, brown, white), bells, white and brown noise", () => {
    expect(read("s: 300@10/10 spin:200+12/80 bspin:300-4/20 wspin:100+8/30 bell+2050/20 bell480/5 white/3 brown/4\nNOW s\n").session.voices).toEqual([
      { kind: "isochronic", carrier: 300, pulse: 10, amp: 10 },
      { kind: "spin", colour: "pink", width: 200, rate: 12, amp: 80 },
      { kind: "spin", colour: "brown", width: 300, rate: -4, amp: 20 },
      { kind: "spin", colour: "white", width: 100, rate: 8, amp: 30 },
      { kind: "bell", carrier: 2050, amp: 20 },
      { kind: "bell", carrier: 480, amp: 5 },
      { kind: "noise", colour: "white", amp: 3 },
      { kind: "noise", colour: "brown", amp: 4 },
    ]);
  });

  it("what is not played yet is a warning on its line, and the rest plays; so does a word that is no voice (its slot silent)", () => {
    const r = read("-m river.ogg -V 80\nwave00: 0 1 0\ns: mix/50 200+4/20 mixspin:300+4/50 sine:100/10\nNOW s\n");
    // -V 80 lowers every level to 80 % (not the effects' strength); wave00 is read (no sound uses
    // it), -m names the soundtrack, mix/50 plays it and mixspin turns it.
    expect(r.warnings).toEqual([]);
    expect(r.session.soundtrack).toEqual({ name: "river.ogg" });
    expect(r.session.voices).toEqual([
      { kind: "mix", amp: 40 }, { kind: "binaural", carrier: 200, beat: 4, amp: 16 }, { kind: "mixspin", width: 300, rate: 4, amp: 50 }, { kind: "tone", carrier: 100, amp: 8 },
    ]);
    const bad = readSbgVoices("s: 200+4/20 tone\nNOW s\n");
    expect(bad.ok && bad.warnings.map((w) => [w.line, w.message.slice(0, 20)])).toEqual([[1, "'tone': not a voice "]]);
    expect(bad.ok && bad.session.voices).toEqual([{ kind: "binaural", carrier: 200, beat: 4, amp: 20 }]);
  });
});

describe("readSbgVoices: transitions", () => {
  const a = { kind: "binaural", carrier: 200, beat: 10, amp: 50 } as Voice;
  const b = { kind: "binaural", carrier: 300, beat: 4, amp: 40 } as Voice;
  const off = (v: Voice) => ({ ...v, amp: 0 });

  it("a change of pitch under '--' goes through silence at the middle of the 60 s window", () => {
    // The ring's wrap from b into a: a rises from silence over the first 30 s, as in SBaGen.
    expect(steps("-SE\na: 200+10/50\nb: 300+4/40\nNOW a\nNOW+00:10 b\nNOW+00:20 b\n")).toEqual([
      [0, "hold", [off(a)]],
      [30, "linear", [a]],
      [570, "hold", [a]],
      [600, "linear", [off(a)]],
      [600, "hold", [off(b)]],
      [630, "linear", [b]],
    ]);
  });

  it("'==' on both sides slides every value linearly across the window", () => {
    const s = steps("-SE\na: 200+10/50\nb: 300+4/40\nNOW == a\nNOW+00:10 == b\nNOW+00:20 == b\n");
    // The wrap from b into a at 0:00 slides too: half way from b to a at the start.
    expect(s).toEqual([
      [0, "hold", [{ kind: "binaural", carrier: 250, beat: 7, amp: 45 }]],
      [30, "linear", [a]],
      [570, "hold", [a]],
      [630, "linear", [b]],
    ]);
  });

  it("'->' slides to the next line; a voice that starts in it fades in at its own pitch", () => {
    expect(steps("-SE\na: 200+10/50\nb: 300+4/40 pink/10\nNOW a ->\nNOW+00:10 b\nNOW+00:20 b\n")).toEqual([
      [0, "hold", [a, { kind: "noise", colour: "pink", amp: 0 }]],
      [600, "linear", [b, { kind: "noise", colour: "pink", amp: 10 }]],
    ]);
  });

  it("a bell strikes at the middle of the window that brings its set in, and stands in its slot only there", () => {
    const text = "-SE\na: 200+10/50\nb: 200+10/50 bell+2050/20\nNOW a\nNOW+00:10 b\nNOW+00:20 b\n";
    const s = steps(text);
    expect(s.find(([, , v]) => v?.some((x) => x?.kind === "bell"))).toEqual([600, "linear", [a, { kind: "bell", carrier: 2050, amp: 20 }]]);
    expect(voicesAt(text, 630)).toEqual([a]);
  });

  it("test2: the ring's wrap from 'alloff' makes the first set rise from silence over the first 30 s", () => {
    const text = "h8: pink/50 100+8/50\nalloff: -\nNOW h8\n+00:05:00 alloff\n";
    expect(read(text).session.voices).toEqual([{ kind: "noise", colour: "pink", amp: 0 }, { kind: "binaural", carrier: 100, beat: 8, amp: 0 }]);
    expect(steps(text)[1]).toEqual([30, "linear", [{ kind: "noise", colour: "pink", amp: 50 }, { kind: "binaural", carrier: 100, beat: 8, amp: 50 }]]);
  });

  it("-T starts the session at a clock time inside the ring; a mark after the name is read with a warning", () => {
    const r = read("-T 0:00\noff: -\na: 200+4/20\n0:00:30 a\n0:10 off ==\n");
    expect(r.warnings).toEqual([{ line: 5, message: "the fade mark '==' after the name is read as if it came before it (SBaGen 1.4 refuses it)" }]);
    // At 0:00 the change-over from 'off' into 'a' (at 0:00:30) is under way: a is still silent.
    expect(r.session.voices).toEqual([{ kind: "binaural", carrier: 200, beat: 4, amp: 0 }]);
  });
});

describe("readSbgVoices: programs", () => {
  it("-p drop 00d: ten 3-minute steps with beats 10, 8.572, ... 2.5, a 5 s fade-in and a 10 s fade-out", () => {
    const r = read("-p drop 00d\n");
    const held = r.session.timeline!.steps.filter((s) => s.voices?.[0]?.amp === 1).map((s) => s.voices![0] as { beat: number });
    const beats = [...new Set(held.map((v) => Number(v.beat.toFixed(3))))];
    expect(beats).toEqual([10, 8.572, 7.349, 6.3, 5.4, 4.629, 3.969, 3.402, 2.916, 2.5]);
    // Steps of 180 s, slid into the next over 10 s; ends 10 s after the last point: 1790 + 5 + 10 + 5.
    expect(r.session.duration).toBe(1805);
    expect(r.session.voices).toEqual([{ kind: "binaural", carrier: 204.5, beat: 10, amp: 0 }]);
  });

  it("-p sigmoid 00ds: the beat follows a tanh from 10 Hz to 2.5 Hz, through 6.25 Hz at the middle, where drop's exponential is at 5 Hz", () => {
    /** The program voice's beat at point a of 30 (one every 30/29 minutes, the first 5 s in). */
    const beatAt = (text: string, a: number) => (read(text).session.timeline!.steps[a + 1].voices![0] as { beat: number }).beat;
    expect(beatAt("-p sigmoid 00ds\n", 0)).toBeCloseTo(10, 3);
    expect(beatAt("-p sigmoid 00ds\n", 29)).toBeCloseTo(2.5, 3);
    // Points 14 and 15 sit either side of the middle: a tanh is odd about it, so they average 6.25.
    expect((beatAt("-p sigmoid 00ds\n", 14) + beatAt("-p sigmoid 00ds\n", 15)) / 2).toBeCloseTo(6.25, 3);
    // Steepest in the middle: more change from point 13 to 16 than from 0 to 3.
    expect(beatAt("-p sigmoid 00ds\n", 13) - beatAt("-p sigmoid 00ds\n", 16)).toBeGreaterThan(beatAt("-p sigmoid 00ds\n", 0) - beatAt("-p sigmoid 00ds\n", 3));
    expect(Math.sqrt(beatAt("-p drop 00ds\n", 14) * beatAt("-p drop 00ds\n", 15))).toBeCloseTo(5, 3);
    // h moves the middle later; S starts elsewhere; a negative letter mirrors the target upward.
    expect(beatAt("-p sigmoid 00ds:h=5\n", 15)).toBeGreaterThan(beatAt("-p sigmoid 00ds\n", 15));
    expect(beatAt("-p sigmoid 00ds:S=12\n", 0)).toBeCloseTo(12, 3);
    expect(beatAt("-p sigmoid 00-bs\n", 29)).toBeCloseTo(5.1, 3);
  });

  it("SBaGenX's program options: M plays a monaural beat (both tones in both ears), @ isochronic, N only the extra voices, signed levels", () => {
    const first = (text: string) => read(text).session.timeline!.steps.find((x) => x.at === 5)!.voices;
    expect(first("-p drop 00dsM\n")).toEqual([{ kind: "tone", carrier: 200, amp: 1 }, { kind: "tone", carrier: 210, amp: 1 }]);
    expect(first("-p sigmoid 00ds@/3\n")).toEqual([{ kind: "isochronic", carrier: 205, pulse: 10, amp: 3 }]);
    expect(first("-p sigmoid Nds pink/20\n")).toEqual([null, { kind: "noise", colour: "pink", amp: 20 }]);
    expect((first("-p drop -05ds\n")![0] as { carrier: number }).carrier).toBe(215);
  });

  it("-p slide 200+10/1: the carrier slides to 5 Hz, so the lower ear ends at 0 Hz", () => {
    const r = read("-p slide 200+10/1 mix/100\n");
    const s = r.session.timeline!.steps;
    expect(s.map((x) => x.at)).toEqual([0, 5, 1805, 1815]);
    expect(s[2].voices).toEqual([{ kind: "binaural", carrier: 5, beat: 10, amp: 1 }, { kind: "mix", amp: 100 }]);
    expect(r.warnings.map((w) => w.message)).toEqual(["mix/ plays the soundtrack, but no -m names its file: the mix voices are silent"]);
  });

  it("-m names the soundtrack and mix/amp plays it; the writer keeps both", () => {
    const r = read("-SE\n-m sounds/river1.ogg\nts: mix/85 200+4/20\nNOW ts\nNOW+00:01 ts\n");
    expect(r.warnings).toEqual([]);
    // Folders are not kept in a session (a shared preset names no paths): the name is the file's.
    expect(r.session.soundtrack).toEqual({ name: "river1.ogg" });
    expect(r.session.voices![0]).toEqual({ kind: "mix", amp: 85 });
    const again = read(toSbg(r.session).text).session;
    expect(again.soundtrack).toEqual({ name: "river1.ogg" });
    expect(again.voices).toEqual(r.session.voices);
    expect(read("-m river.ogg\nts: 200+4/20\nNOW ts\n").warnings.map((w) => w.message)).toEqual(["-m river.ogg: no tone-set plays it (SBaGen needs mix/amp in a tone-set)"]);
  });
});

describe("toSbg with voices: the round trip", () => {
  const files = [...EXAMPLE_FILES, ...list(FIXTURES).filter((f) => !ERROR_FIXTURES.some((x) => f.endsWith(`/${x}`)))];

  it("readSbgVoices(toSbg(session)) gives the session back for every example and fixture", () => {
    expect(files.length).toBeGreaterThan(HAVE_EXAMPLES ? 30 : 12);
    for (const f of files) {
      const first = read(readFileSync(f, "utf8")).session;
      const out = toSbg(first);
      const again = readSbgVoices(out.text);
      expect(again.ok, `${f}\n${out.text}`).toBe(true);
      if (again.ok) expect(again.session, `${f}\n${out.text}`).toEqual(first);
    }
  });

  it("writes tone-sets of voices and slides: binaural with its sign, spin, bells", () => {
    const text = toSbg(read("-SE\na: 200-10/50 spin:300+4/20\nb: 200+10/50 bell+480/5\nNOW a\nNOW+00:10 b\nNOW+00:20 b\n").session).text;
    expect(text).toContain("a: 200-10/50 spin:300+4/20\n");
    // The bell strikes at 10:00, where b's binaural voice starts rising from silence.
    expect(text).toMatch(/: 200\+10\/0 bell\+480\/5\n/);
  });
});

describe("readSbgVoices: mixam:beat", () => {
  it("takes a program's beat at each point; in a plain tone-set it is a warning and left out", () => {
    const steps = read("-p sigmoid 00ds mix/100 mixam:beat\n").session.timeline!.steps;
    const point = (a: number) => steps[a + 1].voices!;
    for (const a of [0, 14, 29]) {
      const beat = (point(a)[0] as { beat: number }).beat;
      expect(point(a)[2]).toMatchObject({ kind: "mixam", rate: beat });
    }
    const plain = readSbgVoices("ts: mix/80 mixam:beat\nNOW ts\n");
    expect(plain.warnings.map((w) => w.message)).toContain("mixam:beat follows the beat of a -p program (drop, sigmoid, slide): left out here");
  });
});

describe("readSbgVoices: -V, -c and -I", () => {
  it("-V scales every level; -c scales each tone by its frequency's factor; -I shapes isochronic pulses", () => {
    const r = read("-SE\n-c 80=1,40=2\n-I s=0:d=0.5:a=0:r=0:e=0\nts: 60/10 200+4/10 300@2/10 pink/10\nNOW ts\nNOW+00:01 ts\n");
    expect(r.warnings).toEqual([]);
    const [low, beat, iso, noise] = r.session.voices as Voice[];
    expect(low.amp).toBeCloseTo(15, 6); // 60 Hz: half way from 80 (x1) to 40 (x2)
    expect(beat.amp).toBe(10); // above 80 Hz: the top factor
    expect(noise.amp).toBe(10); // noise has no frequency
    const env = (iso as { envelope: number[] }).envelope;
    expect(env.slice(0, 128).every((x) => x === 1) && env.slice(128).every((x) => x === 0)).toBe(true);
    expect(read("-V 0\nts: 200/10\nNOW ts\n").warnings.map((w) => w.message)).toEqual(["-V takes a level from 1 to 100"]);
  });
});
