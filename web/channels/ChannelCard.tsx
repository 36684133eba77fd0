// One channel card: frequency number input, logarithmic slider (1 Hz-20 kHz, log-scale.ts; 16 ms
// debounce), waveform selector, on/off, and the mixer: volume 0-100 % (0.5 = 50 %, the nominal
// level; dsp/host/model/volume.ts), Mute and Solo. Locked channels (spec 4: no subscription or
// unlimited access) are disabled, blurred, '🔒 Pro Only'; channels a running demo opens carry the
// '🎉 Demo' badge. Up and Down in the frequency box, and the arrows on the slider, step 1 Hz
// (Shift: 10 Hz; shortcuts.ts); Page Up/Down and Home/End move the slider along its scale.

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useStore } from "zustand";
import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";
import { volumeDb, volumeFromPercent, volumePercent } from "../../dsp/host/model/volume";
import { WAVEFORMS, type Waveform } from "../../dsp/host/schema/state";
import { useStudioGate } from "../account/hooks";
import { ProLock } from "../account/ProLock";
import { isChannelLocked, isDemoUnlocked } from "../account/studio-gating";
import { DemoBadge } from "../demo/DemoBadge";
import { sanitizeFrequency } from "../state/studio-store";
import { frequencyStep, steppedFrequency } from "../state/shortcuts";
import { useStudio } from "../state/studio-context";
import { SLIDER_STEPS, frequencyToPosition, positionToFrequency } from "./log-scale";
import "./channels.css";

const SLIDER_DEBOUNCE_MS = 16;

/** The id of a channel's frequency box (Ctrl+F focuses channel 1's). */
export const frequencyInputId = (id: number) => `channel-${id}-frequency`;

export function ChannelCard({ id }: { id: number }) {
  const store = useStudio();
  const channel = useStore(store, (s) => s.channels[id - 1]);
  const gate = useStudioGate();
  const locked = isChannelLocked(gate, id);
  // Drafts exist only while the user is typing or dragging; otherwise the store's value shows.
  const [draft, setDraft] = useState<string | null>(null);
  const [sliderDraft, setSliderDraft] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const onText = (value: string) => {
    const cleaned = value.replace(/[^0-9.]/g, "");
    setDraft(cleaned);
    store.getState().setFrequency(id, sanitizeFrequency(cleaned));
  };

  const onSlider = (position: number) => {
    setSliderDraft(position);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      store.getState().setFrequency(id, positionToFrequency(position));
      setSliderDraft(null);
    }, SLIDER_DEBOUNCE_MS);
  };

  const step = (delta: number) => {
    clearTimeout(timer.current);
    setDraft(null);
    setSliderDraft(null);
    const current = store.getState().channels[id - 1].frequency;
    store.getState().setFrequency(id, steppedFrequency(current, delta));
  };

  const onTextKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const delta = frequencyStep(e);
    if (delta === null) return;
    e.preventDefault();
    step(delta);
  };

  const onSliderKey = (e: KeyboardEvent<HTMLInputElement>) => {
    // The arrows step 1 Hz (Shift: 10 Hz) as before the scale was logarithmic, not one position.
    const delta = frequencyStep(e, true);
    if (delta === null) return;
    e.preventDefault();
    step(delta);
  };

  const label = `Channel ${id}`;
  const sliderHz = sliderDraft === null ? channel.frequency : positionToFrequency(sliderDraft);
  const percent = volumePercent(channel.volume);
  const db = volumeDb(channel.volume);
  return (
    <section className="channel-card" aria-labelledby={`ch${id}-title`} data-enabled={channel.enabled} data-locked={locked}>
      <header className="channel-head">
        <h3 id={`ch${id}-title`}>{label}</h3>
        {isDemoUnlocked(gate, id) && <DemoBadge />}
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            aria-label={`${label} on/off`}
            checked={channel.enabled}
            disabled={locked}
            onChange={(e) => store.getState().setChannelOn(id, e.target.checked)}
          />
          <span aria-hidden="true" className="switch-track" />
          <span className="switch-text">{channel.enabled ? "On" : "Off"}</span>
        </label>
      </header>
      <label className="field">
        <span>Frequency (Hz)</span>
        <input
          id={frequencyInputId(id)}
          type="text"
          inputMode="decimal"
          role="spinbutton"
          aria-label={`${label} frequency (Hz)`}
          aria-describedby="frequency-help"
          aria-valuemin={0}
          aria-valuemax={MAX_FREQUENCY_HZ}
          aria-valuenow={channel.frequency}
          aria-valuetext={`${channel.frequency} Hz`}
          value={draft ?? String(channel.frequency)}
          disabled={locked}
          onBlur={() => setDraft(null)}
          onChange={(e) => onText(e.target.value)}
          onKeyDown={onTextKey}
        />
      </label>
      <label className="field">
        <span>Waveform</span>
        <select
          aria-label={`${label} waveform`}
          value={channel.waveform}
          disabled={locked || gate.waveformLocked}
          onChange={(e) => store.getState().setWaveform(id, e.target.value as Waveform)}
        >
          {WAVEFORMS.map((w) => (
            <option key={w} value={w}>{w[0].toUpperCase() + w.slice(1)}</option>
          ))}
        </select>
      </label>
      <label className="field frequency-range">
        <span>Frequency slider (log, 1 Hz-20 kHz)</span>
        <input
          type="range"
          className="frequency-slider"
          min={0}
          max={SLIDER_STEPS}
          step={1}
          aria-label={`${label} frequency slider (Hz)`}
          aria-valuetext={`${sliderHz} Hz`}
          value={sliderDraft ?? frequencyToPosition(channel.frequency)}
          disabled={locked}
          onChange={(e) => onSlider(Number(e.target.value))}
          onKeyDown={onSliderKey}
        />
      </label>
      <div className="mixer" role="group" aria-label={`${label} mixer`}>
        <label className="field mixer-volume">
          <span>
            Volume <output className="mixer-value">{percent} %</output>
          </span>
          <input
            type="range"
            min={0}
            max={100}
            step={1}
            aria-label={`${label} volume`}
            aria-valuetext={`${percent} % (${Number.isFinite(db) ? `${db > 0 ? "+" : ""}${db.toFixed(1)} dB` : "silent"})`}
            value={percent}
            disabled={locked}
            onChange={(e) => store.getState().setVolume(id, volumeFromPercent(Number(e.target.value)))}
          />
        </label>
        <button
          type="button"
          className="mixer-toggle"
          aria-pressed={!!channel.muted}
          aria-label={`Mute ${label}`}
          disabled={locked}
          onClick={() => store.getState().setMuted(id, !channel.muted)}
        >
          Mute
        </button>
        <button
          type="button"
          className="mixer-toggle"
          aria-pressed={!!channel.solo}
          aria-label={`Solo ${label}`}
          disabled={locked}
          onClick={() => store.getState().setSolo(id, !channel.solo)}
        >
          Solo
        </button>
      </div>
      {!locked && gate.waveformLocked && <ProLock compact feature={`${label} waveform choice`} />}
      {locked && <ProLock feature={label} />}
    </section>
  );
}
