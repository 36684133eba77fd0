// The session compiled for the engine, and the compiler that makes it. An edit in the studio
// changes the AudioState; turning that state into what the engine plays (the timeline's
// segments, the voices' segments, a noiseNN spectrum's tables) takes milliseconds on a long
// session, so it happens here, on the page's side, and the audio thread only copies the result
// into the engine (Engine.load) between two blocks.
//
// A Program holds only what changed since the compiler's last one (null: unchanged), in typed
// arrays that a postMessage transfer list moves without copying (programTransfer). The compiler
// remembers what it sent, so it must feed exactly one engine, every program in order: a
// MessagePort keeps that order. The export worker and the CLI run both halves in one process
// (Engine.apply), so the same state still gives the same bytes everywhere.

import { effectDef, extrasToArgs } from "./model/catalogue";
import type { ChannelState, EffectState, SoundState, Waveform } from "./model/state";
// timeline-core has no zod either (the schema is in timeline.ts).
import { compileEffects, compileTimeline, hasTimeline, resolveTimeline } from "./model/timeline";
import { anySoloed, mixerFactor, volumeGain } from "./model/volume";
import { spectrumNoise } from "./model/noise-spectrum";
import { compileVoices } from "./model/voice-track";
import type { RecordingPlacement } from "./model/recordings";

const WAVE_INDEX: Record<Waveform, number> = { sine: 0, square: 1, sawtooth: 2, triangle: 3 };

/** Fields per row of each table (the engine's ABI call's arguments, in order). */
export const ROW = {
  /** channel, frequency, waveform, enabled, gain */
  channel: 5,
  /** effect's wasm slot, enabled, value, extra 1-3 */
  effect: 6,
  /** channel, start, f0, f1, g0, g1, curve, waveform */
  timelineChannel: 8,
  /** slot, start, enabled, v0, v1, a1, b1, a2, b2, a3, b3, curve */
  timelineEffect: 12,
  /** slot, start, kind, colour, c0, c1, b0, b1, a0, a1, has shape, duty, attack, release, edge, envelope (-1: none) */
  voiceSegment: 16,
  /** frame, frequency, amplitude */
  bell: 3,
} as const;

export interface TimelineTables {
  channels: Float64Array;
  effects: Float64Array;
  /** Channels that sound anywhere in the session (the mixer's fixed 1/N while it plays). */
  voices: number;
}

export interface VoiceTables {
  /** noiseNN tables: spectrum `id`, table `which` (model/noise-spectrum.ts). */
  spectra: { id: number; which: number; table: Float32Array }[];
  envelopes: { id: number; table: Float32Array }[];
  segments: Float64Array;
  bells: Float64Array;
}

export interface Program {
  /** Voices to upload (null: unchanged; "clear": the session has none). */
  voices: VoiceTables | "clear" | null;
  /** The voice recordings' placements and the step times they may refer to (null: unchanged). */
  recordings: { placements: RecordingPlacement[]; steps: { at: number }[] | null } | null;
  /** The timeline to upload (null: unchanged; "clear": back to the channels' own values). */
  timeline: TimelineTables | "clear" | null;
  /** Channels to set (rows of ROW.channel), when no timeline drives them; null: none changed. */
  channels: Float64Array | null;
  /** Effects to set (rows of ROW.effect); null: none changed. */
  effects: Float64Array | null;
  /** Ids of the effect rows, in order (so a row the engine refuses can be named). */
  effectIds: string[];
}

/** The buffers of a program, for postMessage's transfer list (the program must not be read on
 *  this side after it is posted). */
export function programTransfer(p: Program): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const add = (a: Float64Array | Float32Array | null) => {
    if (a && a.buffer instanceof ArrayBuffer && !out.includes(a.buffer)) out.push(a.buffer);
  };
  if (p.voices && p.voices !== "clear") {
    for (const s of p.voices.spectra) add(s.table);
    for (const e of p.voices.envelopes) add(e.table);
    add(p.voices.segments);
    add(p.voices.bells);
  }
  if (p.timeline && p.timeline !== "clear") {
    add(p.timeline.channels);
    add(p.timeline.effects);
  }
  add(p.channels);
  add(p.effects);
  return out;
}

/** True when the program changes nothing. */
export function isEmptyProgram(p: Program): boolean {
  return p.voices === null && p.recordings === null && p.timeline === null && p.channels === null && p.effects === null;
}

export interface Compiled {
  program: Program;
  /** Effects switched off because their values could not be read (the UI shows them off). */
  failed: string[];
}

/** Turns states into programs for one engine, each holding what changed since the last. */
export class ProgramCompiler {
  readonly sampleRate: number;
  private readonly lastChannels: string[] = ["", "", "", ""];
  private readonly lastEffects = new Map<string, string>();
  private readonly warned = new Set<string>();
  /** What the uploaded timeline was compiled from ("" = no timeline). */
  private timelineKey = "";
  /** Effects the timeline drives: their own values are not sent while it plays. */
  private timelineEffects = new Set<string>();
  /** What the uploaded voices were compiled from ("" = none). */
  private voicesKey = "";
  private recordingsKey = "";

  constructor(sampleRate: number) {
    this.sampleRate = sampleRate;
  }

  /** The engine switched an effect off (its update failed there): send it again next time. */
  forgetEffect(id: string): void {
    this.lastEffects.delete(id);
  }

  compile(state: SoundState): Compiled {
    // The timeline is written out once for both keys below: a long session's JSON is megabytes.
    const timelineJson = hasTimeline(state.timeline) ? JSON.stringify(state.timeline) : "";
    const voices = this.compileVoices(state, timelineJson);
    const recordings = this.compileRecordings(state);
    const timeline = this.compileTimeline(state, timelineJson);
    let channels: Float64Array | null = null;
    if (!hasTimeline(state.timeline)) {
      const solo = anySoloed(state.channels);
      const rows: number[] = [];
      state.channels.slice(0, 4).forEach((c, i) => this.channelRow(i, c, solo, rows));
      if (rows.length > 0) channels = Float64Array.from(rows);
    }
    const failed: string[] = [];
    const effectRows: number[] = [];
    const effectIds: string[] = [];
    for (const [id, fx] of Object.entries(state.effects)) {
      if (this.timelineEffects.has(id)) continue;
      const def = effectDef(id);
      if (!def) {
        if (!this.warned.has(id)) console.warn(`Unknown effect id ignored: ${id}`);
        this.warned.add(id);
        continue;
      }
      let row: number[];
      try {
        row = this.effectRow(id, def, fx);
      } catch (err) {
        console.warn(`Effect ${id} switched off: ${err instanceof Error ? err.message : String(err)}`);
        this.lastEffects.delete(id);
        row = [def.wasm, 0, def.default, 0, 0, 0];
        failed.push(id);
      }
      if (row.length > 0) {
        effectRows.push(...row);
        effectIds.push(id);
      }
    }
    const effects = effectRows.length > 0 ? Float64Array.from(effectRows) : null;
    return { program: { voices, recordings, timeline, channels, effects, effectIds }, failed };
  }

  private compileVoices(state: SoundState, timelineJson: string): VoiceTables | "clear" | null {
    // Keyed by what the voices are compiled from (the voices at 0:00 and the timeline, whose steps
    // carry the later voices), so a change elsewhere in the state does not compile them again.
    const hasVoices = (state.voices?.length ?? 0) > 0 || !!state.timeline?.steps.some((s) => s.voices);
    const key = hasVoices ? `${JSON.stringify(state.voices ?? null)}|${timelineJson}` : "";
    if (key === this.voicesKey) return null;
    this.voicesKey = key;
    const compiled = key === "" ? null : compileVoices(state, this.sampleRate);
    if (!compiled) return "clear";
    const spectra: VoiceTables["spectra"] = [];
    compiled.spectra.forEach((spectrum, id) => {
      // A copy: spectrumNoise keeps its tables for the next compile, and a transfer detaches them.
      spectrumNoise(spectrum, this.sampleRate).forEach((table, which) => spectra.push({ id, which, table: table.slice() }));
    });
    const envelopes = compiled.envelopes.map((env, id) => ({ id, table: Float32Array.from(env) }));
    const count = compiled.slots.reduce((n, segs) => n + segs.length, 0);
    const segments = new Float64Array(count * ROW.voiceSegment);
    let k = 0;
    compiled.slots.forEach((segs, slot) => {
      for (const s of segs) {
        segments.set([slot, s.start, s.kind, s.colour, s.c0, s.c1, s.b0, s.b1, s.a0, s.a1], k);
        if (s.shape) segments.set([1, ...s.shape], k + 10);
        segments[k + 15] = s.envelope ?? -1;
        k += ROW.voiceSegment;
      }
    });
    const bells = new Float64Array(compiled.bells.length * ROW.bell);
    compiled.bells.forEach((b, i) => bells.set([b.at, b.freq, b.amp], i * ROW.bell));
    return { spectra, envelopes, segments, bells };
  }

  private compileRecordings(state: SoundState): Program["recordings"] {
    const placements = state.recordings ?? [];
    const steps = placements.some((p) => p.step !== undefined) ? (state.timeline?.steps.map((s) => ({ at: s.at })) ?? null) : null;
    const key = placements.length === 0 ? "" : JSON.stringify([placements, steps]);
    if (key === this.recordingsKey) return null;
    this.recordingsKey = key;
    return { placements: structuredClone(placements), steps };
  }

  private compileTimeline(state: SoundState, timelineJson: string): TimelineTables | "clear" | null {
    const timeline = state.timeline;
    if (!hasTimeline(timeline)) {
      if (this.timelineKey === "") return null;
      this.timelineKey = "";
      // Back to the state's own values: send every channel and the automated effects again.
      this.lastChannels.fill("");
      for (const id of this.timelineEffects) this.lastEffects.delete(id);
      this.timelineEffects = new Set();
      return "clear";
    }
    const key = `${JSON.stringify([state.channels, state.effects])}|${timelineJson}`;
    if (key === this.timelineKey) return null;
    this.timelineKey = key;
    const steps = resolveTimeline(state, timeline);
    const compiled = compileTimeline(steps, this.sampleRate);
    const fx = compileEffects(steps, this.sampleRate);
    const channels = new Float64Array(compiled.channels.reduce((n, segs) => n + segs.length, 0) * ROW.timelineChannel);
    let k = 0;
    compiled.channels.forEach((segs, ch) => {
      for (const s of segs) {
        channels.set([ch, s.start, s.f0, s.f1, s.g0, s.g1, s.curve, s.waveform], k);
        k += ROW.timelineChannel;
      }
    });
    const effects = new Float64Array(fx.reduce((n, e) => n + e.segments.length, 0) * ROW.timelineEffect);
    k = 0;
    for (const e of fx) {
      for (const s of e.segments) {
        effects.set([e.slot, s.start, s.enabled ? 1 : 0, s.from[0], s.to[0], s.from[1], s.to[1], s.from[2], s.to[2], s.from[3], s.to[3], s.curve], k);
        k += ROW.timelineEffect;
      }
    }
    // Effects the timeline no longer drives get the state's values again.
    const now = new Set(fx.map((e) => e.id));
    for (const id of this.timelineEffects) if (!now.has(id)) this.lastEffects.delete(id);
    this.timelineEffects = now;
    this.lastChannels.fill("");
    return { channels, effects, voices: compiled.voices };
  }

  private channelRow(i: number, c: ChannelState, anySolo: boolean, rows: number[]): void {
    // The mixer's mute and solo silence a channel without switching it off: it still counts in
    // the mix's 1/N, so muting one channel leaves the others as loud as they were.
    const gain = volumeGain(c.volume) * mixerFactor(c, anySolo);
    const key = `${c.frequency}|${c.waveform}|${c.enabled}|${gain}`;
    if (this.lastChannels[i] === key) return;
    this.lastChannels[i] = key;
    rows.push(i, c.frequency, WAVE_INDEX[c.waveform] ?? 0, c.enabled ? 1 : 0, gain);
  }

  /** The effect's row, or [] when it is as last sent. Throws when its values cannot be read. */
  private effectRow(id: string, def: NonNullable<ReturnType<typeof effectDef>>, fx: EffectState): number[] {
    if (typeof fx !== "object" || fx === null) throw new Error("effect update must be an object");
    const value = Math.min(def.max, Math.max(def.min, Number.isFinite(fx.value) ? fx.value : def.default));
    const [e1, e2, e3] = extrasToArgs(def, fx);
    const key = `${fx.enabled}|${value}|${e1}|${e2}|${e3}`;
    if (this.lastEffects.get(id) === key) return [];
    this.lastEffects.set(id, key);
    return [def.wasm, fx.enabled ? 1 : 0, value, e1, e2, e3];
  }
}
