// SBaGen's built-in programs (`-p drop` and `-p slide` on an option line) expanded into the time
// lines SBaGen 1.4 generates for them (/tmp/sbg-semantics.md sections 3.7 and 3.8), so that the
// voice reader (dsp/host/sbg/voices.ts) plays them like any schedule. Every generated line slides
// (`==` and `->`); the schedule starts with 5 s of fade-in from silence at -0:05 and ends with a
// 10 s fade-out, and plays from its first line to its last (-SE).
//
// drop: carrier from 205 - 2L down to 200 - 2L linearly over the drop (and the hold, with `+`);
// beat a of n: 10 * (T/10)^(a/(n-1)), T the letter's target. Steps of 3 minutes (1 with `k`),
// each held and then slid into the next over 10 s (5 s), or with `s` one point per minute slid
// continuously. slide: the carrier slides from C to B/2 (the lower ear ends at 0 Hz), the beat
// held. SBaGenX's `-p sigmoid` is drop with the beat on a tanh from S to the target (its manual's
// formula, through both ends), and SBaGenX's additions to drop are read too (signed levels, N,
// fractional and negative letters, @ isochronic, M monaural, :S=). The lines SBaGenX generates
// for sigmoid are not documented beyond the curve: the points are drop's (one a minute with `s`).

import type { VoiceSlots } from "../model/voices";
import { evalTarget, parseCurveFile, solveCurve, type CurveFile, type CurveTarget } from "./curve";
import type { TimeLine } from "./read";

/** -p curve's `s` mode: the file's expressions are evaluated this often (and slid between). */
const CURVE_STEP_SECONDS = 20;

/** mixam:beat's rate until the program sets it at each point (the reader reads it so). */
export const BOUND_TO_BEAT = -1;

/** Beat targets of the drop letters a-l, in Hz. */
const DROP_TARGETS: Record<string, number> = { a: 4.4, b: 3.7, c: 3.1, d: 2.5, e: 2.0, f: 1.5, g: 1.2, h: 0.9, i: 0.7, j: 0.5, k: 0.4, l: 0.3 };
/** Program times start 5 s before the first point (the fade-in). */
const LEAD_IN = 5;

/** What the expansion needs of the reader. */
export interface ProgramHost {
  sets: Map<string, VoiceSlots>;
  stopAtEnd: boolean;
  error(line: number, message: string): void;
  warn(line: number, message: string): void;
  toneSet(line: number, name: string, words: string[]): VoiceSlots | null;
  /** The text of a file the schedule names (a `-p curve` .sbgf), or null when it cannot be read. */
  readFile?(name: string): string | null;
}

type Voice = (carrier: number, beat: number) => VoiceSlots;

class Program {
  lines: TimeLine<VoiceSlots>[] = [];
  constructor(private host: ProgramHost, private line: number, private voice: Voice, private extra: VoiceSlots) {}

  /** A line at t seconds of the program (0 = the first point) playing carrier c and beat b. */
  at(t: number, c: number | null, b = 0, slide = true) {
    // mixam:beat among the extra voices takes the program's beat (or pulse) at each point.
    const extra = this.extra.map((v) => (v?.kind === "mixam" && v.rate === BOUND_TO_BEAT ? { ...v, rate: Math.abs(b) } : v));
    this.atSet(t, c === null ? null : [...this.voice(c, b), ...extra], slide);
  }

  /** A line at t seconds playing `set` (null: silence). */
  atSet(t: number, set: VoiceSlots | null, slide = true) {
    const name = set === null ? "off" : `auto-${this.lines.length}`;
    this.host.sets.set(name, set ?? []);
    this.lines.push({ line: this.line, at: t + LEAD_IN, now: true, fadeIn: "slide", fadeOut: "slide", name, set: set ?? [], slide });
  }
}

/** The voices a program plays: binaural with the sign, isochronic with '@', SBaGenX's monaural
 *  beat with 'M' (carrier - beat/2 and carrier + beat/2 in both ears), none for level N (only the
 *  extra voices play: SBaGenX's way to drive a trajectory without its tone). */
function programVoice(sign: string, amp: number, mute = false): Voice {
  if (mute) return () => [null];
  if (sign === "@") return (c, b) => [{ kind: "isochronic", carrier: c, pulse: Math.abs(b), amp }];
  if (sign === "M") return (c, b) => [{ kind: "tone", carrier: c - b / 2, amp }, { kind: "tone", carrier: c + b / 2, amp }];
  return (c, b) => [{ kind: "binaural", carrier: c, beat: sign === "-" ? -b : b, amp }];
}

/** A drop or sigmoid target letter as SBaGenX reads it: a-l, a fraction toward the next deeper
 *  letter (a.5), or a negative letter mirrored upward around a = 4.4 Hz (-b is 5.1 Hz). */
function dropTarget(spec: string): number | null {
  const m = /^(-?)([a-l])(\.\d+)?$/.exec(spec);
  if (!m) return null;
  const letters = Object.keys(DROP_TARGETS);
  const i = letters.indexOf(m[2]);
  const frac = m[3] ? Number(m[3]) : 0;
  const next = DROP_TARGETS[letters[Math.min(i + 1, letters.length - 1)]];
  const t = DROP_TARGETS[m[2]] + (next - DROP_TARGETS[m[2]]) * frac;
  return m[1] ? 2 * DROP_TARGETS.a - t : t;
}

/** `-p drop` (SBaGen 1.4, with SBaGenX's signed levels, N, fractional and negative letters, @ and M,
 *  :S=) and `-p sigmoid` (SBaGenX): the same carrier fall and steps; the beat moves from S (10 Hz)
 *  to the target exponentially (drop) or along a * tanh(l (t - D/2 - h)) + b through both ends,
 *  t in minutes (sigmoid; l = 0.125 and h = 0 by default). */
/** What -p drop, sigmoid and curve share: the timing, the level/target spec and its :name=value
 *  parameters, and the extra voices. */
interface DropSpec {
  D: number;
  H: number;
  W: number;
  level: number;
  target: number;
  mode: string;
  hold: boolean;
  back: boolean;
  sign: string;
  amp: number;
  mute: boolean;
  params: Record<string, number>;
  extra: VoiceSlots;
}

function dropSpec(host: ProgramHost, line: number, args: string[], name: string, takes: (param: string) => boolean): DropSpec | null {
  let [D, H, W] = [30, 30, 3];
  const fail = (message: string) => (host.error(line, message), null);
  if (/^t/.test(args[0] ?? "")) {
    const m = /^t(\d+)(?:,(\d+)(?:,(\d+))?)?$/.exec(args.shift()!);
    if (!m) return fail(`${name}: the timing is tD,H,W in whole minutes (t30,30,3)`);
    [D, H, W] = [Number(m[1]), Number(m[2] ?? H), Number(m[3] ?? W)];
  }
  const [spec, ...pairs] = (args.shift() ?? "").split(":");
  const m = /^(-?\d\d(?:\.\d+)?|N)(-?[a-l](?:\.\d+)?)([sk]?)(\+?)(\^?)([@M]?)(?:\/(\d+(?:\.\d*)?|\.\d+))?$/.exec(spec);
  const target = m ? dropTarget(m[2]) : null;
  if (!m || target === null || Math.abs(Number(m[1])) > 100) {
    return fail(`${name} needs a level and a target like 00ds+ (two digits up to 100 or N, a letter a-l, then s or k, +, ^, @ or M, /amp)`);
  }
  const params: Record<string, number> = {};
  for (const kv of pairs) {
    const [k, v] = kv.split("=");
    if ((k === "S" || takes(k)) && v !== undefined && v !== "" && Number.isFinite(Number(v))) params[k] = Number(v);
    else host.warn(line, `${name}: '${kv}' ignored`);
  }
  const extra = host.toneSet(line, name, args);
  if (!extra) return null;
  return {
    D, H, W, level: m[1] === "N" ? 0 : Number(m[1]), target, mode: m[3], hold: m[4] === "+", back: m[5] === "^",
    sign: m[6] || "+", amp: m[7] ? Number(m[7]) : 1, mute: m[1] === "N", params, extra,
  };
}

function drop(host: ProgramHost, line: number, args: string[], sigmoid = false): TimeLine<VoiceSlots>[] | null {
  const name = sigmoid ? "-p sigmoid" : "-p drop";
  const d = dropSpec(host, line, args, name, (k) => sigmoid && (k === "l" || k === "h"));
  if (!d) return null;
  const { D, H, W, level, target, mode, hold, back, extra } = d;
  const shape = { l: 0.125, h: 0, S: 10, ...d.params };
  const p = new Program(host, line, programVoice(d.sign, d.amp, d.mute), extra);
  const c0 = 205 - 2 * level, c2 = 200 - 2 * level;
  const steplen = mode ? 60 : 180;
  const n = Math.ceil((D * 60) / steplen);
  const dropSecs = n * steplen;
  const holdSecs = mode === "s" ? H * 60 : Math.ceil((H * 60) / steplen) * steplen;
  const len = dropSecs + (hold ? holdSecs : 0);
  const S = shape.S;
  // The sigmoid through f(0) = S and f(D) = target (a straight line when l is 0).
  const u0 = Math.tanh(shape.l * (-D / 2 - shape.h)), u1 = Math.tanh(shape.l * (D / 2 - shape.h));
  const sa = u1 !== u0 ? (target - S) / (u1 - u0) : 0;
  const sigma = (minutes: number) => (u1 !== u0 ? sa * Math.tanh(shape.l * (minutes - D / 2 - shape.h)) + (S - sa * u0) : S + ((target - S) * minutes) / D);
  const beat = (a: number) => {
    if (n <= 1) return S;
    if (sigmoid) return sigma((a / (n - 1)) * D);
    return S * (target / S) ** (a / (n - 1));
  };
  const carrier = (t: number) => c0 + ((c2 - c0) * t) / len;
  p.at(-LEAD_IN, null);
  let end: number;
  if (mode === "s") {
    for (let a = 0; a < n; a++) {
      const t = n > 1 ? Math.floor((a * dropSecs) / (n - 1)) : 0;
      p.at(t, carrier(t), beat(a));
    }
    if (hold) p.at(len, c2, target);
    end = len;
  } else {
    const gap = steplen === 180 ? 10 : 5;
    for (let a = 0; a < len / steplen; a++) {
      const c = carrier((a + 1) * steplen), b = beat(Math.min(a, n - 1));
      p.at(a * steplen, c, b);
      p.at((a + 1) * steplen - gap, c, b);
    }
    end = len - gap;
  }
  if (back) {
    end += W * 60;
    p.at(end, c0, S);
  }
  p.at(end + 10, null, 0, false);
  return p.lines;
}

/** `-p curve FILE.sbgf` (SBaGenX): drop's timing, carrier fall and steps, with the beat (and, when
 *  the file sets them, the carrier, the program tone's amp, the soundtrack's mix/amp and its
 *  effects' values) from the file's expressions (dsp/host/sbg/curve.ts), evaluated at each point:
 *  drop's steps, or with `s` every CURVE_STEP_SECONDS, slid between. */
function curve(host: ProgramHost, line: number, args: string[]): TimeLine<VoiceSlots>[] | null {
  const fileName = args.shift();
  const fail = (message: string) => (host.error(line, message), null);
  if (!fileName || !fileName.endsWith(".sbgf")) return fail("-p curve needs a .sbgf file first: -p curve file.sbgf 00ls");
  const text = host.readFile?.(fileName) ?? null;
  if (text === null) return fail(`-p curve: ${fileName} is missing: give it with the schedule (the command line reads it beside the schedule; the studio's import takes it chosen together with the .sbg)`);
  let file: CurveFile;
  try {
    file = parseCurveFile(text);
  } catch (err) {
    return fail(`-p curve: ${fileName} ${(err as Error).message}`);
  }
  const d = dropSpec(host, line, args, "-p curve", (k) => /^[A-Za-z_]\w*$/.test(k));
  if (!d) return null;
  const { D, H, W, level, target, mode, hold, back } = d;
  const c0 = 205 - 2 * level;
  const steplen = mode ? 60 : 180;
  const n = Math.ceil((D * 60) / steplen);
  const dropSecs = n * steplen;
  const holdSecs = mode === "s" ? H * 60 : Math.ceil((H * 60) / steplen) * steplen;
  const len = dropSecs + (hold ? holdSecs : 0);
  const c1 = 200 - 2 * level;
  const mix = d.extra.find((v) => v?.kind === "mix");
  const vars: Record<string, number> = {
    D, H: hold ? H : 0, T: len / 60, U: back ? W : 0, b0: d.params.S ?? 10, b1: target, c0, c1, a0: d.amp, m0: mix?.amp ?? 0, t: 0, m: 0,
    ...file.params,
  };
  for (const [k, v] of Object.entries(d.params)) if (k !== "S") vars[k] = v;
  try {
    solveCurve(file, vars);
  } catch (err) {
    return fail(`-p curve: ${fileName}: ${(err as Error).message}`);
  }
  const p = new Program(host, line, programVoice(d.sign, d.amp, d.mute), d.extra);
  /** The set at `t` seconds: the program voice and the extras with the file's values. */
  const setAt = (t: number, beatT = t): VoiceSlots | null => {
    const at = { ...vars, t, m: t / 60 };
    const beatVars = { ...vars, t: beatT, m: beatT / 60 };
    const value = (k: CurveTarget, v: Record<string, number>) => {
      const x = evalTarget(file, k, v);
      return x === undefined || !Number.isFinite(x) ? undefined : x;
    };
    const b = value("beat", beatVars) ?? vars.b0;
    const c = value("carrier", at) ?? c0 + ((c1 - c0) * t) / len;
    const amp = value("amp", at);
    const voice = programVoice(d.sign, amp === undefined ? d.amp : Math.max(0, amp), d.mute)(c, b);
    const extra = d.extra.map((v): VoiceSlots[number] => {
      if (!v) return v;
      const pick = (k: CurveTarget, fallback: number) => value(k, at) ?? fallback;
      switch (v.kind) {
        case "mix": return { ...v, amp: Math.max(0, pick("mixamp", v.amp)) };
        case "mixspin": return { ...v, width: pick("mixspin_width", v.width), rate: pick("mixspin_hz", v.rate), amp: Math.max(0, pick("mixspin_amp", v.amp)) };
        case "mixpulse": return { ...v, pulse: pick("mixpulse_hz", v.pulse), amp: Math.max(0, pick("mixpulse_amp", v.amp)) };
        case "mixbeat": return { ...v, beat: pick("mixbeat_hz", v.beat), amp: Math.max(0, pick("mixbeat_amp", v.amp)) };
        case "mixam": return { ...v, rate: value("mixam_hz", at) ?? (v.rate === BOUND_TO_BEAT ? Math.abs(b) : v.rate) };
        default: return v;
      }
    });
    return [...voice, ...extra];
  };
  p.atSet(-LEAD_IN, null);
  let end: number;
  if (mode === "s") {
    for (let t = 0; t < len; t += CURVE_STEP_SECONDS) p.atSet(t, setAt(t));
    p.atSet(len, setAt(len));
    end = len;
  } else {
    const gap = steplen === 180 ? 10 : 5;
    for (let a = 0; a < len / steplen; a++) {
      // The step's beat where it starts; its carrier where it ends (as drop's).
      const set = setAt((a + 1) * steplen, Math.min(a, n - 1) * steplen);
      p.atSet(a * steplen, set);
      p.atSet((a + 1) * steplen - gap, set);
    }
    end = len - gap;
  }
  if (back) {
    end += W * 60;
    p.atSet(end, setAt(0));
  }
  p.atSet(end + 10, null, false);
  return p.lines;
}

function slide(host: ProgramHost, line: number, args: string[]): TimeLine<VoiceSlots>[] | null {
  let minutes = 30;
  if (/^t/.test(args[0] ?? "")) {
    minutes = Number(args.shift()!.slice(1));
    if (!(minutes > 0)) return (host.error(line, "-p slide: the length is tMIN in minutes (t30)"), null);
  }
  const m = /^(\d+(?:\.\d*)?|\.\d+)([+\-@M])(\d+(?:\.\d*)?|\.\d+)\/(\d+(?:\.\d*)?|\.\d+)$/.exec(args.shift() ?? "");
  if (!m) return (host.error(line, "-p slide needs a tone like 200+10/1 (carrier, + - or @, beat, /amp)"), null);
  const extra = host.toneSet(line, "-p slide", args);
  if (!extra) return null;
  const beat = Number(m[3]), len = minutes * 60;
  const p = new Program(host, line, programVoice(m[2], Number(m[4])), extra);
  p.at(-LEAD_IN, null);
  p.at(0, Number(m[1]), beat);
  p.at(len, beat / 2, beat);
  p.at(len + 10, null, 0, false);
  return p.lines;
}

/** The lines of `-p NAME args...`, or null after reporting what is wrong or not played. */
export function expandProgram(host: ProgramHost, line: number, args: string[]): TimeLine<VoiceSlots>[] | null {
  const [name, ...rest] = args;
  host.stopAtEnd = true;
  if (name === "drop") return drop(host, line, rest);
  if (name === "slide") return slide(host, line, rest);
  if (name === "sigmoid") return drop(host, line, rest, true);
  if (name === "curve") return curve(host, line, rest);
  host.error(line, `-p ${name ?? ""}: unknown program (SBaGen has drop and slide, SBaGenX also sigmoid and curve)`);
  return null;
}
