// The selected step's fields: time, how the sound gets there (hold or a ramp), an optional name,
// each channel's switch, frequency, volume and waveform, and the effect changes (StepEffects).
// Fields show what plays at the step; a value the step sets itself is marked "set here" and can
// be dropped again, so a step stays a partial change (what .sbg files and presets carry).

import { useState } from "react";
import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";
import { WAVEFORMS, type Waveform } from "../../dsp/host/schema/state";
import { RAMPS, type Ramp, type ResolvedStep, type StepChannel, type Timeline } from "../../dsp/host/schema/timeline";
import { PRO_ONLY } from "../account/ProLock";
import { isChannelLocked, type StudioGate } from "../account/studio-gating";
import { sanitizeFrequency } from "../state/studio-store";
import { CommitInput } from "./CommitInput";
import { clearStepChannel, setStepChannel, updateStep, type Edited } from "./edit";
import {
  CHANGED_HERE, CHANNELS_LEGEND, FREQUENCY_LABEL, VOLUME_LABEL, WAVEFORM_LABEL, switchText, DELETE_STEP, FIRST_STEP_RAMP_NOTE, FROM_BEFORE, NEXT_STEP, NOW_PLAYING, PREVIOUS_STEP,
  RAMP_LABELS, STEP_NAME, STEP_RAMP, STEP_TIME, channelField, channelName, clearChannel, stepName,
} from "./messages";
import { StepEffects } from "./StepEffects";
import { CHANNEL_STYLES } from "./TimelineAxis";
import { formatStepTime, parseStepTime } from "./time";
import { volumeFromPercent, volumePercent } from "../../dsp/host/model/volume";

interface Props {
  timeline: Timeline;
  index: number;
  /** What plays at the step (the session's values with every change up to it). */
  state: ResolvedStep;
  gate: StudioGate;
  playing: boolean;
  onSelect(index: number): void;
  onEdit(edit: Edited): void;
  onDelete(): void;
}

const capital = (w: string) => w[0].toUpperCase() + w.slice(1);

export function StepEditor({ timeline, index, state, gate, playing, onSelect, onEdit, onDelete }: Props) {
  const step = timeline.steps[index];
  // An error belongs to the step it was typed for: selecting another step hides it.
  const [error, setError] = useState<{ index: number; text: string } | null>(null);
  const timeError = error?.index === index ? error.text : null;
  const count = timeline.steps.length;
  const idBase = `tl-step`;

  const commitTime = (text: string) => {
    const parsed = parseStepTime(text);
    if (!parsed.ok) {
      setError({ index, text: parsed.error });
      return false;
    }
    setError(null);
    onEdit(updateStep(timeline, index, { at: parsed.seconds }));
    return true;
  };

  const channel = (id: number, patch: Omit<Partial<StepChannel>, "id">) => onEdit(setStepChannel(timeline, index, id, patch));

  return (
    <div className="tl-editor" aria-labelledby={`${idBase}-title`} role="group">
      <div className="tl-editor-head">
        <h3 id={`${idBase}-title`}>
          {stepName(index, count)}
          {playing && <span className="tl-now"> · {NOW_PLAYING}</span>}
        </h3>
        <div className="tl-editor-nav">
          <button type="button" className="secondary" disabled={index <= 0} onClick={() => onSelect(index - 1)}>{PREVIOUS_STEP}</button>
          <button type="button" className="secondary" disabled={index >= count - 1} onClick={() => onSelect(index + 1)}>{NEXT_STEP}</button>
          <button type="button" className="secondary danger" onClick={onDelete}>{DELETE_STEP}</button>
        </div>
      </div>
      <div className="tl-step-fields">
        <div className="field">
          <label htmlFor={`${idBase}-time`}>{STEP_TIME}</label>
          <CommitInput
            id={`${idBase}-time`}
            inputMode="numeric"
            value={formatStepTime(step.at)}
            aria-invalid={timeError ? true : undefined}
            aria-describedby={timeError ? `${idBase}-time-error` : undefined}
            onCommit={commitTime}
          />
          {timeError && <small id={`${idBase}-time-error`} className="tl-error" role="alert">{timeError}</small>}
        </div>
        <div className="field">
          <label htmlFor={`${idBase}-ramp`}>{STEP_RAMP}</label>
          <select
            id={`${idBase}-ramp`}
            value={step.ramp}
            disabled={step.at <= 0}
            aria-describedby={step.at <= 0 ? `${idBase}-ramp-note` : undefined}
            onChange={(e) => onEdit(updateStep(timeline, index, { ramp: e.target.value as Ramp }))}
          >
            {RAMPS.map((r) => (
              <option key={r} value={r}>{RAMP_LABELS[r]}</option>
            ))}
          </select>
          {step.at <= 0 && <small id={`${idBase}-ramp-note`}>{FIRST_STEP_RAMP_NOTE}</small>}
        </div>
        <label className="field">
          <span>{STEP_NAME}</span>
          <CommitInput maxLength={64} value={step.label ?? ""} onCommit={(text) => onEdit(updateStep(timeline, index, { label: text }))} />
        </label>
      </div>
      <fieldset className="tl-group">
        <legend>{CHANNELS_LEGEND}</legend>
        <div className="tl-channels">
          {state.channels.map((c) => {
            const own = step.channels?.find((x) => x.id === c.id);
            const setHere = !!own && Object.keys(own).length > 1;
            const locked = isChannelLocked(gate, c.id);
            return (
              <fieldset key={c.id} className="tl-channel" data-set={setHere} disabled={locked}>
                <legend>
                  <span className="tl-swatch" style={{ background: CHANNEL_STYLES[c.id - 1].color }} aria-hidden="true" />
                  {channelName(c.id)} <span className="tl-badge">{setHere ? CHANGED_HERE : FROM_BEFORE}</span>
                </legend>
                {locked ? (
                  <p className="tl-locked">{PRO_ONLY}</p>
                ) : (
                  <>
                    <label className="switch">
                      <input
                        type="checkbox"
                        role="switch"
                        aria-label={channelField(c.id, "on/off")}
                        checked={c.enabled}
                        onChange={(e) => channel(c.id, { enabled: e.target.checked })}
                      />
                      <span className="switch-text">{switchText(c.enabled)}</span>
                    </label>
                    <label className="field">
                      <span>{FREQUENCY_LABEL}</span>
                      <CommitInput
                        inputMode="decimal"
                        aria-label={channelField(c.id, "frequency (Hz)")}
                        value={String(c.frequency)}
                        onCommit={(text) => channel(c.id, { frequency: Math.min(MAX_FREQUENCY_HZ, sanitizeFrequency(text)) })}
                      />
                    </label>
                    <label className="field">
                      <span>{VOLUME_LABEL}</span>
                      <CommitInput
                        inputMode="numeric"
                        aria-label={channelField(c.id, "volume (%)")}
                        value={String(volumePercent(c.volume))}
                        onCommit={(text) => {
                          const v = Number.parseFloat(text.replace(/[^0-9.]/g, ""));
                          if (!Number.isFinite(v)) return false;
                          channel(c.id, { volume: volumeFromPercent(v) });
                        }}
                      />
                    </label>
                    <label className="field">
                      <span>{WAVEFORM_LABEL}</span>
                      <select
                        aria-label={channelField(c.id, "waveform")}
                        value={c.waveform}
                        disabled={gate.waveformLocked}
                        onChange={(e) => channel(c.id, { waveform: e.target.value as Waveform })}
                      >
                        {WAVEFORMS.map((w) => (
                          <option key={w} value={w}>{capital(w)}</option>
                        ))}
                      </select>
                    </label>
                  </>
                )}
                {setHere && (
                  <button type="button" className="secondary" onClick={() => onEdit(clearStepChannel(timeline, index, c.id))}>
                    {clearChannel(c.id)}
                  </button>
                )}
              </fieldset>
            );
          })}
        </div>
      </fieldset>
      <StepEffects timeline={timeline} index={index} state={state} gate={gate} onEdit={onEdit} />
    </div>
  );
}
