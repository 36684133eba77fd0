// The voices' pure edits (web/timeline/voices-edit.ts): the .sbg import rule between channels and
// voices, the slots a target plays, and add / remove / edit / change kind at 0:00 and on a step,
// never mutating the sound given and always within the model's limits.

import { describe, expect, it } from "vitest";
import { MAX_VOICES, type VoiceSlots } from "../../../../dsp/host/schema/voices";
import type { Timeline } from "../../../../dsp/host/schema/timeline";
import { VOICES_FULL } from "../../../../web/timeline/messages";
import {
  START, addVoice, clearStepVoices, hasVoices, readSchedule, removeVoice, setVoiceKind, setVoiceSlots, setVoiceWaveform, updateVoice, voiceOfKind, voicesAt, type VoiceSound,
} from "../../../../web/timeline/voices-edit";

const deepFreeze = <T>(o: T): T => {
  if (o && typeof o === "object") {
    Object.values(o).forEach(deepFreeze);
    Object.freeze(o);
  }
  return o;
};

const start: VoiceSlots = [
  { kind: "binaural", carrier: 200, beat: 10, amp: 30 },
  { kind: "noise", colour: "pink", amp: 20 },
];
const timeline: Timeline = {
  steps: [
    { at: 0, ramp: "hold" },
    { at: 10, ramp: "linear", voices: [{ kind: "tone", carrier: 300, amp: 40 }] },
    { at: 20, ramp: "hold" },
  ],
};
const sound: VoiceSound = deepFreeze({ voices: start, timeline });

describe("readSchedule (the import rule)", () => {
  it("keeps a schedule the channels play exactly in the channels", () => {
    const r = readSchedule("low: 200/50\nNOW low\n");
    expect(r.ok && r.session.voices).toBeFalsy();
    expect(r.ok && r.session.channels[0]).toMatchObject({ frequency: 200, enabled: true });
  });

  it("reads in voices what the channels would play otherwise (more than four tones, spin, the '+' ears)", () => {
    const many = readSchedule("ts: 100+1/10 150+2/10 200+3/10 250+4/10 300+5/10 pink/20\nNOW ts\n");
    expect(many.ok).toBe(true);
    if (!many.ok) return;
    expect(many.session.voices).toHaveLength(6);
    expect(many.session.voices![5]).toEqual({ kind: "noise", colour: "pink", amp: 20 });
    expect(many.session.channels.every((c) => !c.enabled)).toBe(true);
    const spin = readSchedule("s: spin:300+4.2/30\nNOW s\n");
    expect(spin.ok && spin.session.voices?.[0]).toEqual({ kind: "spin", colour: "pink", width: 300, rate: 4.2, amp: 30 });
  });

  it("keeps the channels' errors when neither reads the text", () => {
    const r = readSchedule("low: 200/50\nNOW == low\nNOW+00:01 == nowhere\n");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors[0]).toMatchObject({ line: 3 });
  });
});

describe("voicesAt and hasVoices", () => {
  it("reads the start, a step's own set and a step's inherited set", () => {
    expect(voicesAt(sound, START)).toEqual({ slots: start, own: true });
    expect(voicesAt(sound, 0)).toEqual({ slots: start, own: false });
    expect(voicesAt(sound, 1)).toEqual({ slots: timeline.steps[1].voices, own: true });
    expect(voicesAt(sound, 2)).toEqual({ slots: timeline.steps[1].voices, own: false });
    expect(hasVoices(sound)).toBe(true);
    expect(hasVoices({})).toBe(false);
    expect(hasVoices({ voices: [null] })).toBe(false);
    expect(hasVoices({ timeline: { steps: [{ at: 0, ramp: "hold", voices: [] }] } })).toBe(true);
  });
});

describe("voice edits", () => {
  it("adds a voice at the start, in the first empty slot", () => {
    const r = addVoice({ voices: [null, start[1]] }, START);
    expect(r.ok && r.slot).toBe(0);
    expect(r.ok && r.voices).toEqual([voiceOfKind("tone"), start[1]]);
    const r2 = addVoice(sound, START, { kind: "bell", carrier: 500, amp: 10 });
    expect(r2.ok && r2.voices).toEqual([...start, { kind: "bell", carrier: 500, amp: 10 }]);
    expect(r2.ok && r2.timeline).toBe(timeline);
  });

  it("adds on a step without voices from the set it plays, leaving the start alone", () => {
    const r = addVoice(sound, 0);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.voices).toBe(start);
    expect(r.timeline!.steps[0].voices).toEqual([...start, voiceOfKind("tone")]);
    expect(r.timeline!.steps[1]).toBe(timeline.steps[1]);
  });

  it("refuses a voice past MAX_VOICES", () => {
    const full: VoiceSlots = Array.from({ length: MAX_VOICES }, () => voiceOfKind("tone"));
    expect(addVoice({ voices: full }, START)).toEqual({ ok: false, error: VOICES_FULL });
  });

  it("removes a voice leaving its slot empty (the others keep their places), trailing slots dropped", () => {
    expect(removeVoice(sound, START, 0).voices).toEqual([null, start[1]]);
    expect(removeVoice(sound, START, 1).voices).toEqual([start[0]]);
    expect(removeVoice({ voices: [start[0]] }, START, 0).voices).toBeUndefined();
    expect(removeVoice(sound, 1, 0).timeline!.steps[1].voices).toEqual([]);
    expect(removeVoice(sound, START, 7)).toBe(sound);
  });

  it("edits a voice's values, clamped by the model, ignoring values it does not have", () => {
    expect(updateVoice(sound, START, 0, { carrier: 250, beat: -4 }).voices![0]).toEqual({ kind: "binaural", carrier: 250, beat: -4, amp: 30 });
    expect(updateVoice(sound, START, 0, { amp: 150, pulse: 3 }).voices![0]).toEqual({ kind: "binaural", carrier: 200, beat: 10, amp: 100 });
    expect(updateVoice(sound, START, 1, { colour: "brown" }).voices![1]).toEqual({ kind: "noise", colour: "brown", amp: 20 });
    expect(updateVoice(sound, START, 0, { carrier: Number.NaN })).toBe(sound);
    expect(updateVoice(sound, 2, 0, { carrier: 320 }).timeline!.steps[2].voices).toEqual([{ kind: "tone", carrier: 320, amp: 40 }]);
  });

  it("changes a voice's kind keeping its carrier, amp and colour", () => {
    expect(setVoiceKind(sound, START, 0, "isochronic").voices![0]).toEqual({ kind: "isochronic", carrier: 200, pulse: 10, amp: 30 });
    expect(setVoiceKind(sound, START, 1, "spin").voices![1]).toEqual({ kind: "spin", colour: "pink", width: 300, rate: 4, amp: 20 });
    expect(setVoiceKind(sound, START, 1, "tone").voices![1]).toEqual({ kind: "tone", carrier: 200, amp: 20 });
    expect(setVoiceKind(sound, START, 0, "binaural")).toBe(sound);
  });

  it("sets a tone's waveform (sine takes it away) and leaves other voices alone", () => {
    const square = setVoiceWaveform(sound, START, 0, "square");
    expect(square.voices![0]).toEqual({ kind: "binaural", carrier: 200, beat: 10, amp: 30, waveform: "square" });
    expect(setVoiceWaveform(square, START, 0, "sine").voices![0]).toEqual({ kind: "binaural", carrier: 200, beat: 10, amp: 30 });
    expect(setVoiceWaveform(sound, START, 1, "triangle")).toBe(sound); // noise
  });

  it("drops a step's own voices, and sets a whole slot set", () => {
    const cleared = clearStepVoices(sound, 1);
    expect(cleared.timeline!.steps[1]).toEqual({ at: 10, ramp: "linear" });
    expect(clearStepVoices(sound, 0)).toBe(sound);
    expect(setVoiceSlots(sound, START, []).voices).toBeUndefined();
    expect(setVoiceSlots(sound, START, [{ kind: "tone", carrier: 99999, amp: 10 }]).voices).toEqual([{ kind: "tone", carrier: 20000, amp: 10 }]);
  });
});
