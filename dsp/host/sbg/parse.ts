// Reads an SBaGen schedule (.sbg) into a studio session on the four channels (parseSbg; the mapping
// and its sources are in dsp/host/sbg/model.ts, the text itself is read by dsp/host/sbg/read.ts,
// SBaGen's own sound as voices is dsp/host/sbg/voices.ts). Every construct the studio cannot play is reported with its line: an error when
// the sound would be wrong, a warning when it is approximated or left out.
//
// Time rules (SBaGen plays a 24-hour day; the studio plays from 0:00):
// - The first time line is 0:00. Each later line is placed after the one above it: a clock time
//   earlier than the line above is on the next day (23:59:55 then 0:00 is 5 s later). NOW is the
//   start; NOW and clock times in one schedule are an error (their order depends on the hour).
// - Between two lines SBaGen fades over a window (-F, default 60 s) centred on the later line:
//   tones that continue at the same pitch change level across it, other tones fade out to the
//   middle and in from there (`==` slides everything, `<`/`>` fade everything through silence).
//   The window is cut short by the lines around it, as sbagen.c does. A line ending in `->` slides
//   linearly over the whole time to the next line; a tone starting or ending in a slide fades at
//   its own pitch. These become timeline steps (hold and linear ramps) that play the same.
// - The session ends at the last line when its tone-set is silent or -E is given; a last
//   tone-set that sounds plays SBG_TAIL_SECONDS more; -L gives the length outright. At most 12 h.

import { effectDef } from "../model/catalogue";
import { MAX_TIMELINE_STEPS, MIN_DURATION_SECONDS } from "../model/limits";
import { PRESET_VERSION, parsePreset, type PresetData } from "../schema/preset";
import { defaultEffects } from "../schema/state";
import type { TimelineStep } from "../schema/timeline";
import {
  AUTO_NAME, CHANNELS, DAY_SECONDS, JUMP_FADE_MS, MAX_SECONDS, SBG_MAX_CHARS, SBG_MAX_TONES, SBG_TAIL_SECONDS,
  clock, isSilent, num, sameSet, setBeat, silentSet, studioChannels, studioEffects,
  type Noise, type NoiseType, type SbgIssue, type SetState, type Tone,
} from "./model";
import { SPEC, ScheduleReader, pyIsoWarning, type OptionWords, type TimeLine as Line } from "./read";

type TimeLine = Line<SetState>;

export type SbgResult =
  | { ok: true; session: PresetData; warnings: SbgIssue[] }
  | { ok: false; errors: SbgIssue[]; warnings: SbgIssue[] };

const RE = SPEC;

interface Key {
  t: number;
  set: SetState;
  ramp: "hold" | "linear";
  line: number;
  label?: string;
}

/** The four-channel reader: SBaGen's tone-sets as the studio's channels and effects. */
class Reader extends ScheduleReader<SetState> {
  private warnedPlus = false;

  protected option(line: number, flag: string, words: OptionWords): "stop" | void {
    const arg = words.next;
    switch (flag) {
      case "i": case "p":
        this.error(line, `-${flag} (${flag === "i" ? "immediate tone-specs" : "pre-programmed sequences"}) is not supported in a schedule: write a tone-set and a NOW line`);
        return "stop";
      case "T": arg(); this.warn(line, "-T (start at a clock time) ignored: the session plays from its first line"); break;
      case "m": arg(); this.warn(line, "-m (soundtrack file) ignored: the studio has no soundtrack input"); break;
      case "c": arg(); this.warn(line, "-c (headphone compensation) ignored: it belongs to one listener's headphones"); break;
      default:
        if (!this.playbackOption(line, flag, words)) this.error(line, `unknown option -${flag}`);
    }
  }

  protected definition(line: number, name: string): boolean {
    if (!/^wave\d\d$/.test(name)) return false;
    this.warn(line, `waveform definition '${name}' is not used: the studio plays sine tones`);
    return true;
  }

  protected undefinedSet(_line: number, name: string): SetState | undefined {
    return name === "off" || name === "alloff" ? silentSet() : undefined;
  }

  // ---- tone-set definitions ----------------------------------------------------------------------
  protected toneSet(line: number, name: string, words: string[]): SetState | null {
    const slots: (Tone | null)[] = [];
    let noise: Noise | null = null;
    let bad = false;
    for (const w of words) {
      let m: RegExpExecArray | null;
      if (w === "-") slots.push(null);
      else if ((m = RE.noise.exec(w))) {
        const n = { type: m[1] as NoiseType, amp: Number(m[2]) };
        if (noise && noise.type !== n.type) {
          this.error(line, `'${name}' has ${noise.type} and ${n.type} noise: the studio plays one kind of noise at a time`);
          bad = true;
        } else if (noise) {
          this.warn(line, `'${name}' has two ${n.type} noises: played as one at /${noise.amp + n.amp}`);
          noise = { type: n.type, amp: noise.amp + n.amp };
        } else noise = n;
      } else if ((m = RE.binaural.exec(w))) {
        const beat = Number(m[3]) * (m[2] === "-" ? -1 : 1);
        slots.push({ carrier: Number(m[1]), beat, iso: false, amp: Number(m[4]) });
      } else if ((m = RE.iso.exec(w))) slots.push({ carrier: Number(m[1]), beat: Number(m[2]), iso: true, amp: Number(m[3]) });
      else if ((m = RE.pyIso.exec(w))) {
        this.warn(line, pyIsoWarning(w, m));
        slots.push({ carrier: Number(m[1]), beat: Number(m[2]), iso: true, amp: Number(m[3]) });
      } else if ((m = RE.sine.exec(w))) slots.push({ carrier: Number(m[1]), beat: 0, iso: false, amp: Number(m[2]) });
      else if (RE.bell.test(w)) this.warn(line, `'${w}' left out: the studio has no bell (SBaGen pings it when the tone-set starts)`);
      else if (RE.mix.test(w) || /^mix(spin|pulse):/.test(w)) this.warn(line, `'${w}' left out: the studio has no soundtrack input to mix`);
      else if (/^wave\d+:/.test(w)) {
        this.error(line, `'${w}': custom waveforms are not supported (the studio plays SBaGen tones as sine waves)`);
        bad = true;
      } else if (/^[bw]?spin:/.test(w)) {
        this.error(line, `'${w}': spinning noise is not supported`);
        bad = true;
      } else {
        this.error(line, `'${w}' is not a tone: expected carrier+beat/amp, carrier-beat/amp, carrier/amp, carrier@pulse/amp, pink/amp, white/amp, brown/amp or -`);
        bad = true;
      }
    }
    const tones = slots.filter((t): t is Tone => !!t);
    if (slots.length > SBG_MAX_TONES) {
      this.error(line, `'${name}' has ${slots.length} tones; SBaGen allows ${SBG_MAX_TONES}`);
      return null;
    }
    if (tones.length > CHANNELS) {
      this.error(line, `'${name}' has ${tones.length} tones; the studio has ${CHANNELS} channels`);
      return null;
    }
    // More slots than channels but few enough tones: the '-' placeholders go.
    const channels = slots.length > CHANNELS ? tones : slots;
    while (channels.length < CHANNELS) channels.push(null);
    if (bad || !this.checkTones(line, name, tones)) return null;
    return { channels, noise };
  }

  private checkTones(line: number, name: string, tones: Tone[]): boolean {
    let ok = true;
    const fail = (message: string) => {
      this.error(line, message);
      ok = false;
    };
    for (const t of tones) {
      if (t.carrier <= 0 || t.carrier > 20000) fail(`carrier ${t.carrier} Hz in '${name}' is outside the studio's 0-20000 Hz (0 Hz is silent)`);
    }
    const audible = tones.filter((t) => t.amp > 0);
    const iso = audible.filter((t) => t.iso);
    const bin = audible.filter((t) => !t.iso && t.beat !== 0);
    const plain = audible.filter((t) => !t.iso && t.beat === 0);
    if (iso.length && iso.length < audible.length) fail(`'${name}' mixes isochronic and other tones: the studio's isochronic pulses gate every channel`);
    else if (bin.length && plain.length) fail(`'${name}' mixes plain tones and binaural beats: the studio's binaural beat applies to every channel`);
    const beats = [...new Set(bin.map((t) => t.beat))];
    if (beats.length > 1) fail(`'${name}' has different beats (${beats.map((b) => `${b > 0 ? "+" : ""}${b}`).join(", ")} Hz): the studio has one binaural beat for all channels`);
    const pulses = [...new Set(iso.map((t) => t.beat))];
    if (pulses.length > 1) fail(`'${name}' has different pulse rates (${pulses.join(", ")} Hz): the studio has one isochronic rate for all channels`);
    const range = (id: string, v: number, what: string) => {
      const d = effectDef(id)!;
      if (v < d.min || v > d.max) fail(`${what} ${v} Hz in '${name}' is outside the studio's ${d.min}-${d.max} Hz`);
    };
    if (beats.length === 1) range("binaural", Math.abs(beats[0]), "beat");
    if (pulses.length === 1) range("isoPulses", pulses[0], "pulse rate");
    if (ok && !this.warnedPlus && bin.some((t) => t.beat > 0)) {
      this.warnedPlus = true;
      this.warn(line, "'+' beats put the higher tone in the left ear; the studio's binaural beat always puts it in the right ear and cannot store the swap: this plays with the ears swapped (same beat) and exports as '-'");
    }
    return ok;
  }
}

// ---- schedule -> keyframes ----------------------------------------------------------------------

const lerp = (a: number, b: number, u: number) => a + (b - a) * u;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

function lerpTone(a: Tone, b: Tone, u: number): Tone {
  return { carrier: lerp(a.carrier, b.carrier, u), beat: lerp(a.beat, b.beat, u), iso: a.iso, amp: lerp(a.amp, b.amp, u) };
}

function lerpSet(a: SetState, b: SetState, u: number): SetState {
  return {
    channels: a.channels.map((t, i) => {
      const s = b.channels[i];
      return t && s ? lerpTone(t, s, u) : u < 1 ? t : s;
    }),
    noise: a.noise && b.noise ? { type: a.noise.type, amp: lerp(a.noise.amp, b.noise.amp, u) } : u < 1 ? a.noise : b.noise,
  };
}

const mute = <T extends { amp: number }>(x: T | null): T | null => (x ? { ...x, amp: 0 } : null);

class Keyframes {
  keys: Key[] = [];
  constructor(private r: Reader) {}

  emit(t: number, set: SetState, ramp: Key["ramp"], line: number, label?: string) {
    const last = this.keys[this.keys.length - 1];
    if (last && last.t === t && sameSet(last.set, set)) {
      if (label && !last.label) last.label = label;
      return;
    }
    const r = last && last.t >= t ? "hold" : ramp;
    this.keys.push({ t, set, ramp: r, line, ...(label ? { label } : {}) });
  }

  /** A '->' slide from line a to line b over [a.t, b.t]. */
  slide(a: TimeLine, b: TimeLine, ta: number, tb: number) {
    const A: SetState = { channels: [...a.set.channels], noise: a.set.noise };
    const B: SetState = { channels: [...b.set.channels], noise: b.set.noise };
    for (let k = 0; k < CHANNELS; k++) {
      const x = A.channels[k], y = B.channels[k];
      if (!x && y) A.channels[k] = mute(y);
      else if (x && !y) B.channels[k] = mute(x);
      else if (x && y && x.iso !== y.iso) this.r.warn(a.line, `the slide from '${a.name}' to '${b.name}' changes channel ${k + 1} between isochronic and binaural: the studio switches at ${clock(tb)}`);
    }
    if (!A.noise && B.noise) A.noise = mute(B.noise);
    else if (A.noise && !B.noise) B.noise = mute(A.noise);
    else if (A.noise && B.noise && A.noise.type !== B.noise.type) this.r.warn(a.line, `the slide from '${a.name}' to '${b.name}' changes the noise from ${A.noise.type} to ${B.noise.type}: the studio switches at ${clock(tb)}`);
    const ba = setBeat(A).beat, bb = setBeat(B).beat;
    if ((ba === null) !== (bb === null) && A.channels.some((t, k) => t && B.channels[k])) {
      this.r.warn(a.line, `the slide from '${a.name}' to '${b.name}' goes between a plain tone and a binaural beat: SBaGen slides the beat to or from 0 Hz, the studio switches it ${ba === null ? "on" : "off"} at ${clock(ba === null ? ta : tb)}`);
    }
    this.emit(ta, A, "hold", a.line, sameSet(A, a.set) ? a.name : undefined);
    this.emit(tb, B, "linear", b.line, sameSet(B, b.set) ? b.name : undefined);
  }

  /** The fade window [t - before, t + after] from line a's tone-set to line b's (sbagen.c
   *  correctPeriods): continuing tones change level (or slide, with ==) across it; others fade to
   *  silence at its middle and in from there. */
  fade(a: TimeLine, b: TimeLine, t: number, before: number, after: number) {
    if (before + after <= 0) {
      this.emit(t, b.set, "hold", b.line, b.name);
      return;
    }
    const start = t - before, end = t + after;
    this.emit(start, a.set, "hold", a.line, a.name);
    const silence = a.fadeOut === "silence" || b.fadeIn === "silence";
    const slide = a.fadeOut === "slide" && b.fadeIn === "slide";
    const smooth = (x: Tone | null, y: Tone | null) =>
      !!x && !!y && !silence && x.iso === y.iso && (slide || (x.carrier === y.carrier && x.beat === y.beat));
    const smoothNoise = !!a.set.noise && !!b.set.noise && !silence && a.set.noise.type === b.set.noise.type;
    const fading = a.set.channels.some((x, k) => (x || b.set.channels[k]) && !smooth(x, b.set.channels[k]));
    if (!fading && (smoothNoise || (!a.set.noise && !b.set.noise))) {
      this.emit(end, b.set, "linear", b.line, b.name);
      return;
    }
    let mid = (start + end) / 2;
    if (Number.isInteger(start) && Number.isInteger(end)) mid = Math.round(mid);
    const u = (mid - start) / (end - start);
    const L: SetState = silentSet(), R: SetState = silentSet();
    for (let k = 0; k < CHANNELS; k++) {
      const x = a.set.channels[k], y = b.set.channels[k];
      if (smooth(x, y)) L.channels[k] = R.channels[k] = lerpTone(x!, y!, u);
      else {
        L.channels[k] = mute(x);
        R.channels[k] = mute(y);
      }
    }
    if (smoothNoise) L.noise = R.noise = { type: a.set.noise!.type, amp: lerp(a.set.noise!.amp, b.set.noise!.amp, u) };
    else {
      L.noise = mute(a.set.noise);
      R.noise = mute(b.set.noise);
    }
    this.emit(mid, L, "linear", a.line);
    this.emit(mid, R, "hold", b.line);
    this.emit(end, b.set, "linear", b.line, b.name);
  }

  /** Cuts the keyframes at `end`, ending an interrupted ramp on its value there. */
  cut(end: number) {
    const keep = this.keys.filter((k) => k.t <= end);
    const next = this.keys[keep.length];
    const last = keep[keep.length - 1];
    if (next && next.ramp === "linear" && last.t < end) {
      keep.push({ t: end, set: lerpSet(last.set, next.set, (end - last.t) / (next.t - last.t)), ramp: "linear", line: next.line });
    }
    this.keys = keep;
  }
}

function build(r: Reader): { keys: Key[]; end: number } | null {
  const lines = r.lines;
  if (!lines.length) {
    r.error(0, "no time lines: nothing plays (add a line such as 'NOW alpha')");
    return null;
  }
  // Times from the first line, each after the one above (a clock time earlier than the line
  // above is on the next day).
  const times = [0];
  for (let i = 1; i < lines.length; i++) {
    const t = times[i - 1] + ((lines[i].at - lines[i - 1].at + DAY_SECONDS) % DAY_SECONDS);
    if (t > MAX_SECONDS) {
      r.error(lines[i].line, `this line comes ${clock(t)} after the first one (a time earlier than the line above is read as the next day): the studio plays at most ${clock(MAX_SECONDS)}`);
      return null;
    }
    times.push(t);
  }
  const kf = new Keyframes(r);
  kf.emit(0, lines[0].set, "hold", lines[0].line, lines[0].name);
  const half = r.fadeMs <= JUMP_FADE_MS ? 0 : r.fadeMs / 2000;
  let cursor = 0;
  for (let i = 0; i + 1 < lines.length; i++) {
    const a = lines[i], b = lines[i + 1];
    if (a.slide) {
      kf.slide(a, b, times[i], times[i + 1]);
      cursor = times[i + 1];
      continue;
    }
    const t = times[i + 1];
    const before = r3(Math.min(half, t - cursor));
    const after = b.slide ? 0 : r3(Math.min(half, i + 2 < lines.length ? times[i + 2] - t : half));
    kf.fade(a, b, t, before, after);
    cursor = t + after;
  }
  const last = lines[lines.length - 1];
  if (last.slide) r.warn(last.line, "'->' on the last line has nothing to slide to: ignored");
  const tLast = times[times.length - 1];
  let end = r.length ?? (isSilent(last.set) || r.stopAtEnd ? tLast : tLast + SBG_TAIL_SECONDS);
  if (end > MAX_SECONDS) {
    if (r.length !== null) r.error(0, `-L ${clock(r.length)} is longer than the studio's ${clock(MAX_SECONDS)}`);
    else end = MAX_SECONDS;
  }
  if (r.length !== null && r.length < tLast) r.warn(0, `-L ${clock(r.length)} ends the session before its last line (${clock(tLast)}): the lines after it are left out`);
  kf.cut(end);
  // A last line that changes nothing only marks the end.
  const keys = kf.keys;
  while (keys.length > 1 && keys[keys.length - 1].ramp === "hold" && sameSet(keys[keys.length - 1].set, keys[keys.length - 2].set)) keys.pop();
  // Keys at 0:00 are the session's start: the last of them is what sounds.
  while (keys.length > 1 && keys[1].t <= 0) keys.shift();
  if (keys.length > MAX_TIMELINE_STEPS) {
    r.error(keys[MAX_TIMELINE_STEPS].line, `the schedule needs ${keys.length} timeline steps (fades take 2-4 each); the studio holds at most ${MAX_TIMELINE_STEPS}`);
    return null;
  }
  return { keys, end };
}

function session(r: Reader, keys: Key[], end: number): PresetData {
  // N: channels that sound anywhere (the studio's mixer divides by it; see sbg-model.ts).
  const voices = [0, 1, 2, 3].filter((k) => keys.some((key) => (key.set.channels[k]?.amp ?? 0) > 0)).length;
  const loud = keys.find((k) => k.set.channels.some((t) => t && (t.amp * voices) / 200 > 1));
  if (loud) {
    const most = 200 / voices;
    r.warn(loud.line, `tones above /${num(most)} are louder than a studio channel with ${voices} channels sounding: they play at /${num(most)}`);
  }
  const label = (k: Key) => (k.label && !AUTO_NAME.test(k.label) ? { label: k.label.slice(0, 64) } : {});
  const steps: TimelineStep[] = keys.map((k) => ({
    at: r3(k.t),
    ramp: k.ramp,
    channels: studioChannels(k.set, voices),
    effects: studioEffects(k.set),
    ...label(k),
  }));
  const base = {
    channels: studioChannels(keys[0].set, voices),
    effects: { ...defaultEffects(), ...studioEffects(keys[0].set) },
    duration: Math.round(Math.min(MAX_SECONDS, Math.max(MIN_DURATION_SECONDS, end))),
    // The volumes are today's (a preset without a version would have those above 0.5 lowered).
    version: PRESET_VERSION,
  };
  // One unnamed tone-set: a sound that does not change, no timeline needed.
  return steps.length === 1 && !steps[0].label ? base : { ...base, timeline: { steps } };
}

/** The one error of a file that is no schedule at all (the wrong file picked). */
export const SBG_TOO_LONG = "the file is larger than 1 MB; an .sbg schedule is a short text file";
export const SBG_NOT_TEXT = "the file is not text (it holds binary data); an .sbg schedule is a short text file";

/** The one error of a text that is no schedule at all (the wrong file picked), or null. */
export function checkText(text: string): SbgResult | null {
  if (typeof text !== "string") return { ok: false, errors: [{ line: 0, message: "the schedule is not text" }], warnings: [] };
  // The wrong file (a WAV, an image, a huge log) is one clear error, not thousands of line errors.
  if (text.length > SBG_MAX_CHARS) return { ok: false, errors: [{ line: 0, message: SBG_TOO_LONG }], warnings: [] };
  // A NUL never appears in a text schedule and almost always in binary files (a Latin-1 comment, read
  // as UTF-8, brings U+FFFD instead, and such a schedule still reads).
  if (text.includes("\u0000")) return { ok: false, errors: [{ line: 0, message: SBG_NOT_TEXT }], warnings: [] };
  return null;
}

/** An SBaGen schedule to a studio session, with every problem by line number (0: the file). */
export function parseSbg(text: string): SbgResult {
  const wrong = checkText(text);
  if (wrong) return wrong;
  const r = new Reader();
  r.read(text);
  const built = r.errors.length ? null : build(r);
  if (!built || r.errors.length) return { ok: false, errors: r.errors, warnings: r.warnings };
  const data = session(r, built.keys, built.end);
  const checked = parsePreset(data);
  if (!checked.ok) return { ok: false, errors: [{ line: 0, message: `the session does not fit the studio: ${checked.error}` }], warnings: r.warnings };
  return { ok: true, session: data, warnings: r.warnings };
}
