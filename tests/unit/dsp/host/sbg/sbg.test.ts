// SBaGen schedules (dsp/host/sbg) on a corpus of real-looking programs (tests/fixtures/sbg):
// the exact steps each becomes (times, frequencies, levels, beats, noise, ramps), the errors and
// warnings with their lines, the sessions passing the preset schema unchanged, and both round
// trips (.sbg -> session -> .sbg, and session -> .sbg -> session, also over generated sessions).

import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PRESET_VERSION, parsePreset, type PresetData } from "../../../../../dsp/host/schema/preset";
import { parseSbg, SBG_MAX_CHARS, SBG_NOT_TEXT, SBG_TOO_LONG, toSbg } from "../../../../../dsp/host/sbg/index";
import { defaultEffects } from "../../../../../dsp/host/schema/state";
import { evaluateTimeline, resolveTimeline, type TimelineStep } from "../../../../../dsp/host/schema/timeline";

const DIR = fileURLToPath(new URL("../../../../fixtures/sbg/", import.meta.url));
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".sbg")).sort();
const read = (f: string) => readFileSync(DIR + f, "utf8");
/** The corpus's schedules that must not read (errors.sbg, option-errors.sbg). */
const isErrorFile = (f: string) => f.endsWith("errors.sbg");

function ok(text: string) {
  const r = parseSbg(text);
  if (!r.ok) throw new Error(`expected a session, got ${JSON.stringify(r.errors)}`);
  return r;
}

/** One step as "at ramp label | ch1 ch2 ch3 ch4 | beat | pulse | noise". */
function row(s: TimelineStep): string {
  const ch = s.channels!.map((c) => (c.enabled ? `${c.frequency}@${c.volume}` : "-")).join(" ");
  const fx = s.effects!;
  return [
    `${s.at} ${s.ramp}${s.label ? ` ${s.label}` : ""}`,
    ch,
    fx.binaural.enabled ? `beat ${fx.binaural.value}` : "-",
    fx.isoPulses.enabled ? `pulse ${fx.isoPulses.value}` : "-",
    fx.noise.enabled ? `${fx.noise.type} ${fx.noise.value}` : "-",
  ].join(" | ");
}
const rows = (f: string) => ok(read(f)).session.timeline!.steps.map(row);

describe("parseSbg: the wrong file", () => {
  const schedule = "alpha: 200+10/50\nNOW alpha\n";

  it("a binary file (a WAV's header holds NULs) is one error, not one per line", () => {
    const wav = `RIFF\u0024\u0000\u0000\u0000WAVEfmt \u0010\u0000\u0000\u0000\n${"\u0001\u0000\n".repeat(5000)}`;
    expect(parseSbg(wav)).toEqual({ ok: false, errors: [{ line: 0, message: SBG_NOT_TEXT }], warnings: [] });
  });

  it("a file longer than SBG_MAX_CHARS is one error; a schedule padded with comments up to it still reads", () => {
    const comment = "# a long comment line\n";
    const padded = schedule + comment.repeat(Math.floor((SBG_MAX_CHARS - schedule.length) / comment.length));
    expect(padded.length).toBeLessThanOrEqual(SBG_MAX_CHARS);
    expect(parseSbg(padded).ok).toBe(true);
    expect(parseSbg(padded + "#".repeat(SBG_MAX_CHARS))).toEqual({ ok: false, errors: [{ line: 0, message: SBG_TOO_LONG }], warnings: [] });
  });

  it("a Latin-1 comment read as UTF-8 (U+FFFD) is still a schedule", () => {
    expect(parseSbg(`# m\uFFFDditation du soir\n${schedule}`).ok).toBe(true);
  });
});

describe("parseSbg: the corpus", () => {
  it("has at least 17 schedules and reads every one but the error files into a session the preset schema keeps as it is", () => {
    expect(FILES.length).toBeGreaterThanOrEqual(17);
    for (const f of FILES) {
      const r = parseSbg(read(f));
      expect(r.ok, f).toBe(!isErrorFile(f));
      if (!r.ok) continue;
      const checked = parsePreset(r.session);
      expect(checked.ok && checked.state, f).toEqual(r.session);
    }
  });

  it("a 40-minute descent: one linear slide from 14 Hz to 4 Hz, then SBaGen's 60 s fade to silence centred on 45:00", () => {
    expect(rows("beta-theta-descent.sbg")).toEqual([
      "0 hold beta | 200@0.1 - - - | beat 14 | - | pink 30",
      "2400 linear theta | 200@0.1 - - - | beat 4 | - | pink 30",
      "2670 hold theta | 200@0.1 - - - | beat 4 | - | pink 30",
      "2700 linear | 200@0 - - - | beat 4 | - | pink 0",
      "2700 hold | - - - - | - | - | -",
    ]);
    const r = ok(read("beta-theta-descent.sbg"));
    expect(r.session.duration).toBe(2700);
    expect(r.warnings).toEqual([]);
    // Halfway down the slide the beat is halfway: 9 Hz at 20:00.
    const steps = resolveTimeline(r.session, r.session.timeline!);
    expect(evaluateTimeline(steps, 1200).effects.binaural.value).toBeCloseTo(9, 9);
  });

  it("clock times: 23:59:55 is 0:00, midnight 5 s later; hh:mm slides; the end fades out around 0:24:30", () => {
    const r = ok(read("clock-times.sbg"));
    expect(r.session.timeline!.steps.map(row)).toEqual([
      "0 hold | 300@0 - - - | beat 8 | - | -",
      "5 linear t00 | 300@0.15 - - - | beat 8 | - | -",
      "365 linear t01 | 275@0.15 - - - | beat 6 | - | -",
      "725 linear t02 | 250@0.15 - - - | beat 4 | - | -",
      "1085 linear t03 | 225@0.15 - - - | beat 2.5 | - | -",
      "1445 hold t03 | 225@0.15 - - - | beat 2.5 | - | -",
      "1475 linear | 225@0 - - - | beat 2.5 | - | -",
      "1475 hold | - - - - | - | - | -",
    ]);
    expect(r.session.duration).toBe(1475);
    // The slide t00 -> t01 is linear in frequency: 287.5 Hz half way.
    const at = evaluateTimeline(resolveTimeline(r.session, r.session.timeline!), 185);
    expect(at.channels[0].frequency).toBeCloseTo(287.5, 9);
  });

  it("NOW+ and +hh:mm count from the last absolute time; each change is a 60 s fade through silence", () => {
    expect(rows("now-relative.sbg").slice(0, 8)).toEqual([
      "0 hold theta4 | 160@0.15 - - - | beat 4 | - | pink 40",
      "570 hold theta4 | 160@0.15 - - - | beat 4 | - | pink 40",
      "600 linear | 160@0 - - - | beat 4 | - | pink 0",
      "600 hold | - - - - | - | - | -",
      "630 linear off | - - - - | - | - | -",
      "1170 hold off | - - - - | - | - | -",
      "1200 linear | - - - - | - | - | -",
      "1200 hold | 160@0 - - - | beat 4 | - | pink 0",
    ]);
    expect(ok(read("now-relative.sbg")).session.duration).toBe(1800);
  });

  it("blocks expand like a rubber stamp, nested, at the calling line's time", () => {
    const steps = ok(read("blocks.sbg")).session.timeline!.steps;
    const named = steps.filter((s) => s.label && s.ramp === "linear").map((s) => `${s.at} ${s.label}`);
    expect(named).toEqual(["330 off", "630 theta4", "930 off", "1830 theta4", "2130 off", "2430 theta4", "2730 off"]);
    expect(ok(read("blocks.sbg")).session.duration).toBe(3600);
  });

  // Found by tests/unit/dsp/host/schema/validators-fuzz.test.ts: a block of n lines calling itself expanded
  // n^17 time lines before the depth check stopped it (3 lines: over 10^8, the tab or CLI hung).
  it("a block that calls itself, or blocks that multiply past any playable schedule, are errors at once", () => {
    const self = parseSbg(["a: 200/30", "loop: {", "  +00:01 loop", "  +00:02 a", "  +00:03 loop", "}", "NOW loop"].join("\n"));
    expect(self.ok).toBe(false);
    expect(!self.ok && self.errors[0]).toEqual({ line: 3, message: "block 'loop' calls itself (in block 'loop' called at line 7)" });

    // Ten blocks of eight lines, each calling the next: 8^10 lines if expanded.
    const chain = ["a: 200/30", "b0: {", ...Array.from({ length: 8 }, (_, i) => `  +00:0${i} a`), "}"];
    for (let k = 1; k < 10; k++) chain.push(`b${k}: {`, ...Array.from({ length: 8 }, (_, i) => `  +00:0${i} b${k - 1}`), "}");
    chain.push("NOW b9");
    const many = parseSbg(chain.join("\n"));
    expect(many.ok).toBe(false);
    expect(!many.ok && many.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^the schedule expands to more than 4000 time lines \(in block 'b\d' called at line \d+\); the studio holds at most 1000 steps$/),
    ]);
  });

  it("fade marks: -- changes level at the same pitch, -= into == slides the pitch, <> fades through silence", () => {
    expect(rows("fade-marks.sbg")).toEqual([
      "0 hold a | 200@0.2 - - - | beat 10 | - | -",
      "270 hold a | 200@0.2 - - - | beat 10 | - | -",
      "330 linear b | 200@0.1 - - - | beat 10 | - | -",
      "570 hold b | 200@0.1 - - - | beat 10 | - | -",
      "600 linear | 200@0 - - - | beat 10 | - | -",
      "600 hold | 300@0 - - - | beat 10 | - | -",
      "630 linear c | 300@0.2 - - - | beat 10 | - | -",
      "870 hold c | 300@0.2 - - - | beat 10 | - | -",
      "930 linear d | 250@0.2 - - - | beat 6 | - | -",
      "1170 hold d | 250@0.2 - - - | beat 6 | - | -",
      "1200 linear | 250@0 - - - | beat 6 | - | -",
      "1200 hold | 200@0 - - - | beat 10 | - | -",
      "1230 linear a | 200@0.2 - - - | beat 10 | - | -",
      "1470 hold a | 200@0.2 - - - | beat 10 | - | -",
      "1500 linear | 200@0 - - - | beat 10 | - | -",
      "1500 hold | - - - - | - | - | -",
    ]);
  });

  it("four carriers share one beat; '-' keeps a slot; -F 10 makes jumps; a slide fades tones in and out at their own pitch", () => {
    const r = ok(read("multi-tone.sbg"));
    expect(r.session.timeline!.steps.map(row)).toEqual([
      "0 hold chord | 100@0.2 200@0.2 300@0.2 400@0.2 | beat 4 | - | -",
      "300 linear chord | 100@0.2 200@0.2 300@0.2 400@0.2 | beat 4 | - | -",
      "300 hold pair | 100@0.4 - 300@0.4 - | beat 6 | - | -",
      "300 hold | 100@0.4 200@0 300@0.4 - | beat 6 | - | -",
      "600 linear | 100@0 200@0.8 300@0 - | beat 6 | - | -",
      "900 hold off | - - - - | - | - | -",
    ]);
    // 200@0.8 is volume 0.8 (amp 40 x 4 channels / 200): the mixer plays it, 6 dB over /25, no warning.
    expect(r.warnings).toEqual([]);
  });

  it("pink, white and brown noise, a noise-only set; isochronic tones; options set the fades and the length", () => {
    expect(rows("noise-types.sbg")).toEqual([
      "0 hold pinkbed | 100@0.1 - - - | beat 3 | - | pink 50",
      "120 hold whitebed | 100@0.1 - - - | beat 3 | - | white 30",
      "240 hold brownbed | 100@0.1 - - - | beat 3 | - | brown 60",
      "360 linear | 100@0 - - - | beat 3 | - | brown 70",
      "480 hold off | - - - - | - | - | -",
    ]);
    expect(rows("isochronic.sbg").slice(0, 2)).toEqual([
      "0 hold | 300@0.3 450@0 - - | - | pulse 12 | -",
      "600 linear focus10 | 300@0.3 450@0.2 - - | - | pulse 10 | -",
    ]);
    const o = ok(read("options.sbg"));
    expect(o.session.duration).toBe(1200); // -L 0:20
    expect(o.session.timeline!.steps.map((s) => s.at)).toEqual([0, 585, 615]); // -F 30000: 15 s each side
    expect(o.warnings.map((w) => w.line)).toEqual([7, 8]);
  });

  it("a sleep program ends silent at 1:10, the last set fading with its slide", () => {
    const r = ok(read("sleep-program.sbg"));
    expect(r.session.duration).toBe(4200);
    expect(r.session.timeline!.steps.map(row).slice(-2)).toEqual([
      "3600 linear quiet | 120@0.05 - - - | beat 2 | - | pink 15",
      "4200 linear | 120@0 - - - | beat 2 | - | pink 0",
    ]);
  });

  it("reports every mistake with its line (errors.sbg)", () => {
    const r = parseSbg(read("errors.sbg"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      { line: 3, message: "'mixed' has different beats (+1.5, +4 Hz): the studio has one binaural beat for all channels" },
      { line: 4, message: "'many' has 5 tones; the studio has 4 channels" },
      { line: 5, message: "'spin:300+4.2/80': spinning noise is not supported" },
      { line: 6, message: "'wave01:200+4/50': custom waveforms are not supported (the studio plays SBaGen tones as sine waves)" },
      { line: 7, message: "beat 45 Hz in 'fast' is outside the studio's 0.5-40 Hz" },
      { line: 8, message: "'plainbin' mixes plain tones and binaural beats: the studio's binaural beat applies to every channel" },
      { line: 12, message: "'nosuch' is not defined above" },
      { line: 13, message: "time 'NOW+00:61': minutes and seconds must be 0-59" },
      { line: 14, message: "'=<' is not a fade mark: expected two of < - = (fade in) and > - = (fade out), like == or <>" },
      { line: 15, message: "NOW and clock times in one schedule: their order depends on when SBaGen is started" },
      { line: 16, message: "options are only allowed at the start of the file, before any tone-set or time" },
      { line: 17, message: "'bspin:300+4.2/80': spinning noise is not supported" },
      { line: 18, message: "'wspin:300+4.2/80': spinning noise is not supported" },
    ]);
  });

  it("warns, by line, for what it approximates or leaves out (approximations.sbg)", () => {
    const r = ok(read("approximations.sbg"));
    expect(r.warnings.map((w) => `${w.line} ${w.message.split(":")[0]}`)).toEqual([
      "4 -T (start at a clock time) ignored",
      "5 -r ignored",
      "7 waveform definition 'wave00' is not used",
      "8 'ts1' has two pink noises",
      "8 'bell+440/20' left out",
      "8 '+' beats put the higher tone in the left ear; the studio's binaural beat always puts it in the right ear and cannot store the swap",
      "9 'mix/80' left out",
      "10 'ts1' is defined again",
      "14 '->' on the last line has nothing to slide to",
    ]);
    // The later definition of ts1 plays: pink/40 200+8/30.
    expect(row(r.session.timeline!.steps[0])).toBe("0 hold ts1 | 200@0.15 - - - | beat 8 | - | pink 40");
  });

  it("the reference tone-set 'alpha: 200+10/50 pink/20': 200 Hz at amplitude 50, a 10 Hz beat, pink noise at 20; alloff ends it", () => {
    const r = ok(read("alpha-over-pink.sbg"));
    expect(rows("alpha-over-pink.sbg")).toEqual([
      "0 hold alpha | 200@0.25 - - - | beat 10 | - | pink 20",
      "1170 hold alpha | 200@0.25 - - - | beat 10 | - | pink 20",
      "1200 linear | 200@0 - - - | beat 10 | - | pink 0",
      "1200 hold | - - - - | - | - | -",
    ]);
    // Amplitude 50 of one voice is volume 0.25 (amp x N / 200), the session's own state at 0:00.
    expect(r.session.channels[0]).toEqual({ id: 1, frequency: 200, waveform: "sine", volume: 0.25, enabled: true });
    expect(r.session.channels.slice(1).every((c) => !c.enabled)).toBe(true);
    expect(r.session.effects.binaural).toEqual({ enabled: true, value: 10 });
    expect(r.session.effects.noise).toEqual({ enabled: true, value: 20, type: "pink", color: 0, density: 100 });
    // alloff is SBaGen's built-in silent tone-set: the last line is silent, so the session ends there.
    expect(r.session.duration).toBe(1200);
    expect(r.warnings).toEqual([
      { line: 5, message: "'+' beats put the higher tone in the left ear; the studio's binaural beat always puts it in the right ear and cannot store the swap: this plays with the ears swapped (same beat) and exports as '-'" },
    ]);
  });

  it("'+' loses its ear order on export, as the import warning says: the studio's beat is written as '-'", () => {
    const text = toSbg(ok(read("alpha-over-pink.sbg")).session).text;
    expect(text).toContain("alpha: pink/20 200-10/50\n");
    expect(text).not.toMatch(/\d\+\d/);
  });

  it("chained times: 12:00+00:05 and 12:00+00:10+00:10 add up on their line, '+00:30' counts from 12:00", () => {
    expect(rows("chained-times.sbg")).toEqual([
      "0 hold theta | 180@0.2 - - - | beat 6 | - | -",
      "270 hold theta | 180@0.2 - - - | beat 6 | - | -",
      "285 linear | 180@0 - - - | beat 6 | - | -",
      "285 hold | 150@0 - - - | beat 2 | - | -",
      "300 linear delta | 150@0.2 - - - | beat 2 | - | -",
      "1200 linear theta | 180@0.2 - - - | beat 6 | - | -",
      "1770 hold theta | 180@0.2 - - - | beat 6 | - | -",
      "1800 linear | 180@0 - - - | beat 6 | - | -",
      "1800 hold | - - - - | - | - | -",
    ]);
    const r = ok(read("chained-times.sbg"));
    expect(r.session.duration).toBe(1800);
    expect(r.warnings).toEqual([]);
    // Half way down the 12:05 -> 12:20 slide: 165 Hz, beat 4 Hz.
    const at = evaluateTimeline(resolveTimeline(r.session, r.session.timeline!), 750);
    expect(at.channels[0].frequency).toBeCloseTo(165, 9);
    expect(at.effects.binaural.value).toBeCloseTo(4, 9);
  });

  it("output options -o -O -W -b -R -D -q and -M are accepted with a warning on their line; the sound is unchanged", () => {
    const r = ok(read("output-options.sbg"));
    const out = "ignored: the studio chooses playback and output itself";
    expect(r.warnings).toEqual([
      { line: 5, message: `-o ${out} (48 kHz, 16-bit)` },
      { line: 6, message: `-O ${out}` },
      { line: 7, message: `-W ${out}` },
      { line: 8, message: `-b ${out} (48 kHz, 16-bit)` },
      { line: 9, message: `-R ${out} (48 kHz, 16-bit)` },
      { line: 10, message: `-D ${out}` },
      { line: 11, message: `-q ${out} (48 kHz, 16-bit)` },
      { line: 12, message: "-M (soundtrack from standard input) ignored: the studio has no soundtrack input" },
      { line: 13, message: `-W ${out}` },
      { line: 13, message: `-o ${out} (48 kHz, 16-bit)` },
    ]);
    // The options' arguments (session.raw, 16, 10, 60, out.wav) are taken as theirs, not as tone-sets.
    expect(rows("output-options.sbg")).toEqual([
      "0 hold beta | 220@0.2 - - - | beat 14 | - | -",
      "270 hold beta | 220@0.2 - - - | beat 14 | - | -",
      "300 linear | 220@0 - - - | beat 14 | - | -",
      "300 hold | - - - - | - | - | -",
    ]);
  });

  it("-i and -p (command-line modes) are errors on their lines; the options after them are still read", () => {
    const r = parseSbg(read("option-errors.sbg"));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toEqual([
      { line: 4, message: "-i (immediate tone-specs) is not supported in a schedule: write a tone-set and a NOW line" },
      { line: 5, message: "-p (pre-programmed sequences) is not supported in a schedule: write a tone-set and a NOW line" },
    ]);
    // Line 6 (-F 20000) is fine, and the '+' beat on line 8 is still reported.
    expect(r.warnings.map((w) => w.line)).toEqual([8]);
  });

  it("mixspin: and mixpulse: are left out with a warning on their line, the rest of the tone-set plays; bspin:/wspin: are errors", () => {
    const r = ok(read("spin-mix.sbg"));
    expect(r.warnings).toEqual([
      { line: 7, message: "'mixspin:300+4.2/80' left out: the studio has no soundtrack input to mix" },
      { line: 8, message: "'mixpulse:8/60' left out: the studio has no soundtrack input to mix" },
    ]);
    expect(rows("spin-mix.sbg").filter((x) => / (spinmix|pulsemix) /.test(x))).toEqual([
      "0 hold spinmix | 200@0.2 - - - | beat 8 | - | pink 30",
      "570 hold spinmix | 200@0.2 - - - | beat 8 | - | pink 30",
      "630 linear pulsemix | 200@0.2 - - - | beat 8 | - | -",
      "1170 hold pulsemix | 200@0.2 - - - | beat 8 | - | -",
    ]);
    // bspin:/wspin: (spinning brown and white noise) are errors: see errors.sbg lines 17-18.
    const spin = parseSbg("a: bspin:300+4.2/80 200-4/30\nNOW a\n");
    expect(!spin.ok && spin.errors).toEqual([{ line: 1, message: "'bspin:300+4.2/80': spinning noise is not supported" }]);
  });

  it("more errors: relative time first, out of order past 12 hours, a missing block end, no time lines, bad words", () => {
    const errs = (text: string) => {
      const r = parseSbg(text);
      return r.ok ? [] : r.errors;
    };
    expect(errs("a: 200/10\n+00:10 a\n")).toEqual([{ line: 2, message: "relative time '+00:10' without an absolute time (NOW or hh:mm) before it" }]);
    expect(errs("a: 200/10\nNOW+00:30 a\nNOW+00:10 a\n")[0]).toEqual({
      line: 3,
      message: "this line comes 23:40:00 after the first one (a time earlier than the line above is read as the next day): the studio plays at most 12:00:00",
    });
    expect(errs("b: {\n +00:00 a\n")).toEqual([{ line: 1, message: "block 'b' has no closing '}'" }]);
    expect(errs("a: 200/10\n")).toEqual([{ line: 0, message: "no time lines: nothing plays (add a line such as 'NOW alpha')" }]);
    expect(errs("a: 200/10 tone\nNOW a\n")[0].line).toBe(1);
    expect(errs("a: 200/10\nNOW a =>\n")).toEqual([{ line: 2, message: "unexpected '=>' after the tone-set name" }]);
    expect(errs("-X\na: 200/10\nNOW a\n")).toEqual([{ line: 1, message: "unknown option -X" }]);
  });
});

describe("toSbg", () => {
  it("round trip .sbg -> session -> .sbg -> session gives the same session for every schedule in the corpus", () => {
    for (const f of FILES.filter((x) => !isErrorFile(x))) {
      const first = ok(read(f)).session;
      const out = toSbg(first);
      const again = parseSbg(out.text);
      expect(again.ok, `${f}\n${out.text}`).toBe(true);
      if (again.ok) expect(again.session, f).toEqual(first);
      // What SBaGen 1.4 cannot play is said; nothing else is.
      const needsPlus = /white\/|brown\/|@/.test(read(f));
      expect(out.warnings.length > 0, f).toBe(needsPlus);
    }
  });

  it("writes tone-sets and NOW-relative lines SBaGen accepts, '-' beats, '->' before ramps, the end line", () => {
    const text = toSbg(ok(read("beta-theta-descent.sbg")).session).text;
    expect(text).toContain("-SE\n-F 10\n");
    expect(text).toContain("beta: pink/30 200-14/20\n");
    expect(text).toContain("NOW == beta ->\nNOW+00:40:00 == theta\n");
    const tone = toSbg({ channels: [{ id: 1, frequency: 432, waveform: "sine", volume: 0.5, enabled: true }], effects: defaultEffects(), duration: 300 } as PresetData);
    expect(tone.text.split("\n").filter((l) => l && !l.startsWith("#") && !l.startsWith("-"))).toEqual([
      "auto-1: 432/100",
      "NOW == auto-1",
      "NOW+00:05:00 == auto-1",
    ]);
  });

  it("warns for what .sbg cannot say: waveforms, other effects, eased ramps, fractional times, names", () => {
    const fx = defaultEffects();
    fx.reverb = { ...fx.reverb, enabled: true };
    const session: PresetData = {
      channels: [{ id: 1, frequency: 200, waveform: "sawtooth", volume: 0.5, enabled: true }],
      effects: fx,
      duration: 60,
      timeline: { steps: [{ at: 10.5, ramp: "ease", channels: [{ id: 1, frequency: 300 }], label: "my step" }] },
    };
    const w = toSbg(session).warnings;
    expect(w).toEqual([
      { line: 0, message: "Reverb is left out: .sbg has no such effect" },
      { line: 0, message: "channel 1's sawtooth wave is written as a sine tone (SBaGen plays sine tones)" },
      { line: 1, message: "the name 'my step' is not an SBaGen name (a letter, then letters, digits, _ or -): written under another name" },
      { line: 1, message: "step 1's ease ramp is written as a linear slide" },
      { line: 1, message: "step 1 at 10.5 s is written at 00:00:11 (SBaGen times are whole seconds)" },
    ]);
  });

  it("a channel silent next to a ramp is written at volume 0 on the pitch the studio fades it at", () => {
    const session: PresetData = {
      channels: [{ id: 1, frequency: 300, waveform: "sine", volume: 0.5, enabled: true }],
      effects: defaultEffects(),
      duration: 60,
      timeline: { steps: [{ at: 20, ramp: "linear", channels: [{ id: 1, enabled: false }] }] },
    };
    expect(toSbg(session).text).toMatch(/auto-2: 300\/0\n/);
  });

  // Sessions made only of what .sbg says: sine channels, whole-second steps (the first at 0 with
  // the whole state), hold or linear ramps, one beat or one pulse rate per step, plain noise,
  // volumes to 4 decimals, SBaGen names or no labels; a ramp keeps each channel's on/off state,
  // the noise's type and the beat's kind (SBaGen slides those differently).
  const channelArb = fc.option(fc.record({ f: fc.integer({ min: 2000, max: 200000 }), v: fc.integer({ min: 0, max: 5000 }) }), { nil: null });
  interface RawStep {
    dt: number;
    ramp: "hold" | "linear";
    ch: ({ f: number; v: number } | null)[];
    kind: "plain" | "binaural" | "iso";
    beat: number;
    pulse: number;
    noise: { type: "white" | "pink" | "brown"; v: number } | null;
    label: string | null;
  }
  const stepArb: fc.Arbitrary<RawStep> = fc.record({
    dt: fc.integer({ min: 1, max: 600 }),
    ramp: fc.constantFrom("hold" as const, "linear" as const),
    ch: fc.array(channelArb, { minLength: 4, maxLength: 4 }),
    kind: fc.constantFrom("plain" as const, "binaural" as const, "iso" as const),
    beat: fc.integer({ min: 1, max: 80 }),
    pulse: fc.integer({ min: 1, max: 120 }),
    noise: fc.option(fc.record({ type: fc.constantFrom("white" as const, "pink" as const, "brown" as const), v: fc.integer({ min: 0, max: 100 }) }), { nil: null }),
    label: fc.option(fc.constantFrom("alpha", "theta-4", "deep_delta", "off"), { nil: null }),
  });

  function sessionOf(raw: RawStep[], tail: number): PresetData {
    const steps: TimelineStep[] = [];
    let at = 0;
    const names = new Map<string, string>();
    raw.forEach((r, i) => {
      at = i === 0 ? 0 : at + r.dt;
      const prev = steps[i - 1];
      const linear = i > 0 && r.ramp === "linear";
      const channels = r.ch.map((c, k) => {
        // A ramp keeps each channel sounding or silent as it was.
        const was = prev?.channels![k].enabled;
        const on = linear ? was : !!c;
        const src = c ?? { f: 44000, v: 2500 };
        return on ? { id: k + 1, frequency: src.f / 100, waveform: "sine" as const, volume: src.v / 10000, enabled: true } : { id: k + 1, frequency: 0, waveform: "sine" as const, volume: 0.5, enabled: false };
      });
      const kind = linear ? (prev.effects!.binaural.enabled ? "binaural" : prev.effects!.isoPulses.enabled ? "iso" : "plain") : r.kind;
      const anyTone = channels.some((c) => c.enabled);
      const fx = defaultEffects();
      const effects: Record<string, (typeof fx)[string]> = { binaural: fx.binaural, isoPulses: fx.isoPulses, noise: fx.noise };
      if (anyTone && kind === "binaural") effects.binaural = { enabled: true, value: r.beat / 2 };
      if (anyTone && kind === "iso") effects.isoPulses = { enabled: true, value: r.pulse / 10 };
      const prevNoise = prev?.effects!.noise;
      const noise = linear ? (prevNoise.enabled ? { type: prevNoise.type as string, v: r.noise?.v ?? 10 } : null) : r.noise;
      if (noise) effects.noise = { enabled: true, value: noise.v, type: noise.type, color: 0, density: 100 };
      const step: TimelineStep = { at, ramp: i === 0 ? "hold" : r.ramp, channels, effects };
      const key = JSON.stringify([channels, effects]);
      if (r.label && (names.get(r.label) ?? key) === key) {
        names.set(r.label, key);
        step.label = r.label;
      }
      steps.push(step);
    });
    return {
      channels: steps[0].channels as PresetData["channels"],
      effects: { ...defaultEffects(), ...(steps[0].effects as PresetData["effects"]) },
      duration: Math.max(30, at + tail),
      timeline: { steps },
      version: PRESET_VERSION,
    } as PresetData;
  }

  /** Sessions .sbg can say exactly: the volume scale (amp = volume x 200 / N) must be the one
   *  the reader finds, and a last step that changes nothing would only mark the end. */
  function expressible(s: PresetData): boolean {
    const steps = s.timeline!.steps;
    const last = steps[steps.length - 1], before = steps[steps.length - 2];
    if (steps.length > 1 && last.ramp === "hold" && JSON.stringify([last.channels, last.effects]) === JSON.stringify([before.channels, before.effects])) return false;
    return steps.length > 1 || !!steps[0].label;
  }

  it("round trip session -> .sbg -> session gives the session back (property over generated sessions)", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 300 }), (raw, tail) => {
        const s = sessionOf(raw, tail);
        fc.pre(expressible(s));
        const checked = parsePreset(s);
        expect(checked.ok && checked.state).toEqual(s);
        const out = toSbg(s);
        const back = parseSbg(out.text);
        if (!back.ok) throw new Error(`${out.text}\n${JSON.stringify(back.errors)}`);
        expect(back.session).toEqual(s);
      }),
      { numRuns: 300 },
    );
  });
});
