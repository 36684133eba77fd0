// The timeline's Voices section: the voice slots playing from the selected step (or from the start,
// 00:00:00) with each voice's kind, carrier, beat / pulse / spin width and rate, noise colour and
// amp, and Add voice / Remove. A step without voices of its own shows those from before; an edit
// gives it its own set (a step's voices are its whole set). Edits go through the pure functions of
// voices-edit.ts into the studio store (setVoices for the start, setTimeline for a step).

import { useState } from "react";
import { useStore } from "zustand";
import { NOISE_COLOURS, VOICE_KINDS, VOICE_WAVEFORMS, type NoiseColour, type Voice, type VoiceKind, type VoiceWaveform } from "../../dsp/host/schema/voices";
import { announce } from "../a11y/announcer";
import { useStudio } from "../state/studio-context";
import { CommitInput } from "./CommitInput";
import { SoundtrackRow } from "./SoundtrackRow";
import {
  ADD_VOICE, KEEP_VOICES, NOISE_COLOUR_LABELS, NO_VOICES, REMOVE, VOICES_AT_START, VOICES_FROM_BEFORE, VOICES_HELP, VOICES_SET_HERE, VOICES_TITLE,
  VOICE_FIELDS, VOICE_FIELD_SHORT, VOICE_KIND_LABELS, WAVEFORM_LABELS, removeVoiceLabel, voiceAdded, voiceField, voiceName, voiceRemoved, voicesAtStep,
} from "./messages";
import { formatStepTime } from "./time";
import {
  START, addVoice, clearStepVoices, hasVoices, removeVoice, setVoiceKind, setVoiceWaveform, updateVoice, voicesAt, type VoicePatch, type VoiceSound,
} from "./voices-edit";

interface Props {
  /** The selected step, -1 when the timeline has none. */
  selected: number;
  locked: boolean;
}

type NumberField = "carrier" | "beat" | "pulse" | "width" | "rate" | "amp";

/** The number fields a voice of each kind shows, in order. */
const FIELDS: Record<VoiceKind, NumberField[]> = {
  tone: ["carrier", "amp"],
  binaural: ["carrier", "beat", "amp"],
  isochronic: ["carrier", "pulse", "amp"],
  noise: ["amp"],
  spin: ["width", "rate", "amp"],
  bell: ["carrier", "amp"],
  mix: ["amp"],
  mixpulse: ["pulse", "amp"],
  mixam: ["rate", "amp"],
  mixspin: ["width", "rate", "amp"],
  mixbeat: ["beat", "amp"],
  noisepulse: ["pulse", "amp"],
  noisebeat: ["beat", "amp"],
};
/** Fields that take a sign (a binaural beat below zero, a spin turning the other way). */
const SIGNED = new Set<NumberField>(["beat", "rate"]);

/** True when a Soundtrack voice plays at the start or at any step. */
function usesSoundtrack(sound: VoiceSound): boolean {
  const mix = (slots: readonly (Voice | null)[] | undefined) => slots?.some((v) => v?.kind === "mix") ?? false;
  return mix(sound.voices) || (sound.timeline?.steps.some((s) => mix(s.voices)) ?? false);
}

function parseNumber(text: string, signed: boolean): number | null {
  const v = Number.parseFloat(text.replace(signed ? /[^0-9.+-]/g : /[^0-9.]/g, ""));
  return Number.isFinite(v) ? v : null;
}

export function VoicesPanel({ selected, locked }: Props) {
  const store = useStudio();
  const voices = useStore(store, (s) => s.voices);
  const timeline = useStore(store, (s) => s.timeline);
  const soundtrack = useStore(store, (s) => s.soundtrack);
  const [atStart, setAtStart] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const sound: VoiceSound = { voices, timeline };
  const steps = timeline?.steps ?? [];
  if (!hasVoices(sound) && selected < 0) return null;

  const target = selected < 0 || atStart ? START : selected;
  const { slots, own } = voicesAt(sound, target);
  const commit = (next: VoiceSound) => {
    setNotice(null);
    if (next.voices !== voices) store.getState().setVoices(next.voices);
    if (next.timeline !== timeline) store.getState().setTimeline(next.timeline);
  };
  const add = () => {
    const result = addVoice(sound, target);
    if (!result.ok) {
      setNotice(result.error);
      announce(result.error);
      return;
    }
    commit(result);
    announce(voiceAdded(result.slot ?? 0));
  };
  const remove = (slot: number) => {
    commit(removeVoice(sound, target, slot));
    announce(voiceRemoved(slot));
  };
  const edit = (slot: number, patch: VoicePatch) => commit(updateVoice(sound, target, slot, patch));

  const heading = target === START ? VOICES_AT_START : voicesAtStep(target, steps.length);
  return (
    <fieldset className="tl-group tl-voices" disabled={locked}>
      <legend>{VOICES_TITLE}</legend>
      <p className="help" id="tl-voices-help">{VOICES_HELP}</p>
      {selected >= 0 && (
        <div className="tl-voices-where" role="radiogroup" aria-label={VOICES_TITLE}>
          <label>
            <input type="radio" name="tl-voices-where" checked={target === START} onChange={() => setAtStart(true)} /> {VOICES_AT_START}
          </label>
          <label>
            <input type="radio" name="tl-voices-where" checked={target !== START} onChange={() => setAtStart(false)} />{" "}
            {voicesAtStep(selected, steps.length)} ({formatStepTime(steps[selected].at)})
          </label>
        </div>
      )}
      <h3 className="tl-voices-head">{heading}</h3>
      {target !== START && <p className="help">{own ? VOICES_SET_HERE : VOICES_FROM_BEFORE}</p>}
      {slots.every((v) => v === null) ? (
        <p className="help">{NO_VOICES}</p>
      ) : (
        <ul className="tl-voice-list">
          {slots.map((v, slot) => (v ? <VoiceRow key={slot} slot={slot} voice={v} sound={sound} target={target} commit={commit} edit={edit} remove={remove} /> : null))}
        </ul>
      )}
      <div className="tl-voices-actions">
        <button type="button" className="secondary" aria-describedby="tl-voices-help" onClick={add}>{ADD_VOICE}</button>
        {target !== START && own && (
          <button type="button" className="secondary" onClick={() => commit(clearStepVoices(sound, target))}>{KEEP_VOICES}</button>
        )}
      </div>
      {notice && <p className="form-error" role="alert">{notice}</p>}
      {(soundtrack || usesSoundtrack(sound)) && <SoundtrackRow locked={locked} />}
    </fieldset>
  );
}

interface RowProps {
  slot: number;
  voice: Voice;
  sound: VoiceSound;
  target: number;
  commit(next: VoiceSound): void;
  edit(slot: number, patch: VoicePatch): void;
  remove(slot: number): void;
}

function VoiceRow({ slot, voice, sound, target, commit, edit, remove }: RowProps) {
  return (
    <li className="tl-voice" data-kind={voice.kind}>
      <h4 className="tl-voice-name">{voiceName(slot)}</h4>
      <label className="field">
        <span>{VOICE_FIELD_SHORT.kind}</span>
        <select
          aria-label={voiceField(slot, VOICE_FIELDS.kind)}
          value={voice.kind}
          onChange={(e) => commit(setVoiceKind(sound, target, slot, e.target.value as VoiceKind))}
        >
          {VOICE_KINDS.map((k) => (
            <option key={k} value={k}>{VOICE_KIND_LABELS[k]}</option>
          ))}
        </select>
      </label>
      {"colour" in voice && (
        <label className="field">
          <span>{VOICE_FIELD_SHORT.colour}</span>
          <select
            aria-label={voiceField(slot, VOICE_FIELDS.colour)}
            value={voice.colour}
            onChange={(e) => edit(slot, { colour: e.target.value as NoiseColour })}
          >
            {NOISE_COLOURS.map((c) => (
              <option key={c} value={c}>{NOISE_COLOUR_LABELS[c]}</option>
            ))}
          </select>
        </label>
      )}
      {(voice.kind === "tone" || voice.kind === "binaural" || voice.kind === "isochronic") && (
        <label className="field">
          <span>{VOICE_FIELD_SHORT.waveform}</span>
          <select
            aria-label={voiceField(slot, VOICE_FIELDS.waveform)}
            value={voice.waveform ?? "sine"}
            onChange={(e) => commit(setVoiceWaveform(sound, target, slot, e.target.value as "sine" | VoiceWaveform))}
          >
            {(["sine", ...VOICE_WAVEFORMS] as const).map((w) => (
              <option key={w} value={w}>{WAVEFORM_LABELS[w]}</option>
            ))}
          </select>
        </label>
      )}
      {FIELDS[voice.kind].map((f) => (
        <label key={f} className="field">
          <span>{VOICE_FIELD_SHORT[f]}</span>
          <CommitInput
            inputMode={SIGNED.has(f) ? "text" : "decimal"}
            aria-label={voiceField(slot, VOICE_FIELDS[f])}
            value={String((voice as unknown as Record<NumberField, number>)[f])}
            onCommit={(text) => {
              const v = parseNumber(text, SIGNED.has(f));
              if (v === null) return false;
              edit(slot, { [f]: v });
            }}
          />
        </label>
      ))}
      <button type="button" className="secondary danger tl-voice-remove" aria-label={removeVoiceLabel(slot)} onClick={() => remove(slot)}>
        {REMOVE}
      </button>
    </li>
  );
}
