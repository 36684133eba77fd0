// One channel card: frequency number input, slider (16 ms debounce), waveform selector, on/off.
// Locked channels (spec 4: no subscription or unlimited access) are disabled, blurred, '🔒 Pro Only';
// channels a running demo opens carry the '🎉 Demo' badge. Up and Down in the frequency box step
// 1 Hz (Shift: 10 Hz); the slider's arrows step 1 Hz natively and 10 Hz with Shift (shortcuts.ts).

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useStore } from "zustand";
import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";
import { WAVEFORMS, type Waveform } from "../../dsp/host/schema/state";
import { useStudioGate } from "../account/hooks";
import { ProLock } from "../account/ProLock";
import { isChannelLocked, isDemoUnlocked } from "../account/studio-gating";
import { DemoBadge } from "../demo/DemoBadge";
import { sanitizeFrequency } from "../state/studio-store";
import { frequencyStep, steppedFrequency } from "../state/shortcuts";
import { useStudio } from "../state/studio-context";

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

  const onSlider = (value: number) => {
    setSliderDraft(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      store.getState().setFrequency(id, value);
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
    // Plain arrows are the slider's own 1 Hz steps; Shift makes them 10 Hz.
    const delta = e.shiftKey ? frequencyStep(e, true) : null;
    if (delta === null) return;
    e.preventDefault();
    step(delta);
  };

  const label = `Channel ${id}`;
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
        <span>Frequency slider</span>
        <input
          type="range"
          min={0}
          max={MAX_FREQUENCY_HZ}
          step={1}
          aria-label={`${label} frequency slider (Hz)`}
          value={sliderDraft ?? channel.frequency}
          disabled={locked}
          onChange={(e) => onSlider(Number(e.target.value))}
          onKeyDown={onSliderKey}
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
      {!locked && gate.waveformLocked && <ProLock compact feature={`${label} waveform choice`} />}
      {locked && <ProLock feature={label} />}
    </section>
  );
}
