// The Quantum mode panel (spec/studio.md sections 4-6), shown to admins with the override on only:
// Manual Mode / Mathematical harmonics, base frequency, pattern and count, the computed list, and
// the sequential player (Simultaneous / Sequential Play, time per frequency, Instant or Smooth
// transitions, Prev/Next and the countdown). The controller that drives the channels lives as long
// as the panel: when the override goes away, quantum mode goes off.

import { useEffect, useState } from "react";
import { useStore } from "zustand";
import {
  HARMONIC_COUNTS, HARMONIC_PATTERNS, PATTERN_LABELS,
  type HarmonicCount, type HarmonicPattern,
} from "../../dsp/host/model/harmonic-patterns";
import { useStudio } from "../state/studio-context";
import { QuantumController } from "./quantum-controller";
import {
  MAX_SMOOTH_STEPS, MIN_SMOOTH_STEPS, SEQUENTIAL_DURATIONS, createQuantumStore, quantumFrequencies,
  type SequentialDuration, type Transition,
} from "./quantum-store";
import "./quantum.css";

/** One quantum store per page: settings survive leaving the studio and coming back. */
export const quantumStore = createQuantumStore();

const CHANNELS_DRIVEN = 4;

function durationLabel(s: number): string {
  return s < 60 ? `${s} s` : `${s / 60} min`;
}

/** The countdown: '45 s' under a minute, else 'm:ss'. */
function countdownText(s: number): string {
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function QuantumPanel() {
  const studio = useStudio();
  const q = useStore(quantumStore);
  const [baseDraft, setBaseDraft] = useState<string | null>(null);

  useEffect(() => {
    const controller = new QuantumController(studio, quantumStore);
    return () => controller.dispose();
  }, [studio]);

  const freqs = quantumFrequencies(q);
  const current = q.sequential ? q.index : -1;

  return (
    <section className="panel quantum" aria-labelledby="quantum-title" data-enabled={q.enabled}>
      <div className="quantum-head">
        <h2 id="quantum-title">Quantum mode</h2>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            aria-label="Quantum mode"
            checked={q.enabled}
            onChange={(e) => q.setEnabled(e.target.checked)}
          />
          <span className="switch-text">{q.enabled ? "Mathematical harmonics" : "Manual Mode"}</span>
        </label>
      </div>
      <p className="help">
        Computes the channel frequencies from a base and a pattern. Editing a channel by hand returns to Manual Mode.
      </p>
      <div className="quantum-settings">
        <label className="field">
          <span>Base frequency (Hz)</span>
          <input
            type="text"
            inputMode="decimal"
            value={baseDraft ?? String(q.base)}
            onChange={(e) => {
              const cleaned = e.target.value.replace(/[^0-9.]/g, "");
              setBaseDraft(cleaned);
              q.setBase(cleaned);
            }}
            onBlur={() => setBaseDraft(null)}
          />
        </label>
        <label className="field">
          <span>Pattern</span>
          <select value={q.pattern} onChange={(e) => q.setPattern(e.target.value as HarmonicPattern)}>
            {HARMONIC_PATTERNS.map((p) => (
              <option key={p} value={p}>{PATTERN_LABELS[p]}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Count</span>
          <select value={q.count} onChange={(e) => q.setCount(Number(e.target.value) as HarmonicCount)}>
            {HARMONIC_COUNTS.map((c) => (
              <option key={c} value={c}>{c}</option>
            ))}
          </select>
        </label>
      </div>
      <ol className="quantum-list" aria-label="Computed frequencies">
        {freqs.map((f, i) => (
          <li
            key={i}
            aria-current={i === current ? "true" : undefined}
            data-drives={!q.sequential && i < CHANNELS_DRIVEN ? "true" : undefined}
          >
            <span className="quantum-n">{q.sequential ? i + 1 : i < CHANNELS_DRIVEN ? `Ch ${i + 1}` : i + 1}</span>
            <span className="quantum-f">{f} Hz</span>
          </li>
        ))}
      </ol>

      <div className="quantum-head">
        <h3 id="sequential-title">Sequential mode</h3>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            aria-label="Sequential mode"
            aria-describedby="sequential-note"
            checked={q.sequential}
            disabled={!q.enabled}
            onChange={(e) => q.setSequential(e.target.checked)}
          />
          <span className="switch-text">{q.sequential ? "Sequential Play" : "Simultaneous"}</span>
        </label>
      </div>
      <p id="sequential-note" className="help">One frequency at a time, on channel 1, cycling through the list.</p>
      <div className="quantum-settings">
        <label className="field">
          <span>Time per frequency</span>
          <select value={q.stepSeconds} onChange={(e) => q.setStepSeconds(Number(e.target.value) as SequentialDuration)}>
            {SEQUENTIAL_DURATIONS.map((s) => (
              <option key={s} value={s}>{durationLabel(s)}</option>
            ))}
          </select>
        </label>
        <fieldset className="quantum-transition">
          <legend>Transition</legend>
          {(["instant", "smooth"] as Transition[]).map((t) => (
            <label key={t}>
              <input type="radio" name="quantum-transition" value={t} checked={q.transition === t} onChange={() => q.setTransition(t)} />
              {t === "instant" ? "Instant" : "Smooth"}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Smooth steps</span>
          <input
            type="number"
            min={MIN_SMOOTH_STEPS}
            max={MAX_SMOOTH_STEPS}
            step={1}
            value={q.smoothSteps}
            disabled={q.transition !== "smooth"}
            onChange={(e) => q.setSmoothSteps(Number(e.target.value))}
          />
        </label>
      </div>
      {q.enabled && q.sequential && (
        <div className="quantum-player">
          <button type="button" className="secondary" onClick={() => q.step(-1)}>Prev</button>
          <p className="quantum-now">
            <span>Now playing {freqs[q.index]} Hz ({q.index + 1} of {q.count})</span>
            <span className="quantum-countdown">Next in {countdownText(q.remaining)}</span>
          </p>
          <button type="button" className="secondary" onClick={() => q.step(1)}>Next</button>
        </div>
      )}
    </section>
  );
}
