// The "Safe listening" panel: the fade-in of every start, the true-peak limiter, the
// per-ear balance (which ear is turned down, in dB) and the sleep timer with its fade and the time
// left. The levels live in levels-store.ts (kept on this device, followed by the audio client and
// the exports); the sleep timer in sleep-timer.ts (per session). The countdown re-renders only
// this panel, once a second while the timer runs.

import { useEffect, useId, useMemo, useState } from "react";
import { useStore } from "zustand";
import {
  BALANCE_MAX_DB, FADE_IN_MAX_SECONDS, LIMITER_CEILING_DBTP, SLEEP_FADE_DEFAULT_SECONDS,
} from "../../dsp/host/schema/levels";
import { useAudio, useStudio } from "../state/studio-context";
import { levelsStore } from "./levels-store";
import {
  SLEEP_FADE_CHOICES, SLEEP_MINUTES, SleepTimer, createSleepTimerStore, formatTimeLeft,
  type SleepFade, type SleepMinutes,
} from "./sleep-timer";
import "./levels.css";

/** One sleep timer per page: the choice survives leaving the studio and coming back. */
export const sleepStore = createSleepTimerStore();

/** "Centre", "Left ear −3.0 dB" or "Right ear −3.0 dB": which ear is turned down. */
export function balanceText(db: number): string {
  if (db === 0) return "Centre";
  return `${db > 0 ? "Left" : "Right"} ear −${Math.abs(db).toFixed(1)} dB`;
}

export const fadeInText = (s: number): string => (s === 0 ? "Off" : `${s} s`);
const minutesText = (m: number): string => (m === 0 ? "Off" : `${m} min`);
const fadeText = (s: number): string => (s < 60 ? `${s} s` : `${s / 60} min`);

export function SafeListeningPanel() {
  const studio = useStudio();
  const audio = useAudio();
  const levels = useStore(levelsStore);
  const sleep = useStore(sleepStore);
  const playing = useStore(studio, (s) => s.isPlaying);
  const timer = useMemo(() => new SleepTimer(sleepStore, audio), [audio]);
  const [now, setNow] = useState(() => Date.now());
  const id = useId();

  // Arms the timer when playback starts, clears it when playback ends (by itself or by Stop).
  useEffect(
    () =>
      studio.subscribe((s, prev) => {
        if (s.isPlaying !== prev.isPlaying) timer.playing(s.isPlaying);
      }),
    [studio, timer],
  );

  useEffect(() => {
    if (sleep.endsAt === null) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0); // at once: `now` may be from long before the timer started
    const id = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(id);
    };
  }, [sleep.endsAt]);

  const left = sleep.endsAt === null ? null : Math.max(0, sleep.endsAt - now);
  const fading = left !== null && left <= sleep.fadeSeconds * 1000;

  return (
    <section className="panel safe-listening" aria-labelledby="safe-title">
      <h2 id="safe-title">Safe listening</h2>
      <p className="help">Kept on this device and used for playback and exports alike.</p>
      <div className="safe-grid">
        {/* A div, not a wrapping label: an <output> inside a label would take the label's name. */}
        <div className="field">
          <span className="safe-head">
            <label htmlFor={`${id}-fade`}>Fade-in at every start</label>
            <output htmlFor={`${id}-fade`}>{fadeInText(levels.fadeIn)}</output>
          </span>
          <input
            id={`${id}-fade`}
            type="range"
            min={0}
            max={FADE_IN_MAX_SECONDS}
            step={0.5}
            value={levels.fadeIn}
            aria-valuetext={fadeInText(levels.fadeIn)}
            onChange={(e) => levels.setLevels({ fadeIn: Number(e.target.value) })}
          />
        </div>
        <div className="field">
          <span className="safe-head">
            <label htmlFor={`${id}-balance`}>Ear balance</label>
            <output htmlFor={`${id}-balance`}>{balanceText(levels.balance)}</output>
          </span>
          <input
            id={`${id}-balance`}
            type="range"
            min={-BALANCE_MAX_DB}
            max={BALANCE_MAX_DB}
            step={0.5}
            value={levels.balance}
            aria-valuetext={balanceText(levels.balance)}
            onChange={(e) => levels.setLevels({ balance: Number(e.target.value) })}
          />
          <span className="safe-scale" aria-hidden="true">
            <span>Right quieter</span>
            <span>Left quieter</span>
          </span>
        </div>
        <label className="switch safe-limiter">
          <input type="checkbox" role="switch" checked={levels.limiter} onChange={(e) => levels.setLevels({ limiter: e.target.checked })} />
          <span>Peak limiter ({LIMITER_CEILING_DBTP} dBTP)</span>
        </label>
      </div>
      <h3 className="safe-sub">Sleep timer</h3>
      <div className="safe-grid">
        <label className="field">
          <span>Stop after</span>
          <select value={sleep.minutes} onChange={(e) => timer.choose(Number(e.target.value) as SleepMinutes, playing)}>
            {SLEEP_MINUTES.map((m) => (
              <option key={m} value={m}>{minutesText(m)}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Fade-out</span>
          <select value={sleep.fadeSeconds} onChange={(e) => timer.chooseFade(Number(e.target.value) as SleepFade, playing)}>
            {SLEEP_FADE_CHOICES.map((s) => (
              <option key={s} value={s}>
                {fadeText(s)}{s === SLEEP_FADE_DEFAULT_SECONDS ? " (default)" : ""}
              </option>
            ))}
          </select>
        </label>
        <p className="safe-left" role="timer" aria-label="Sleep timer: time left">
          {left === null
            ? sleep.minutes > 0 ? `Starts with playback: ${minutesText(sleep.minutes)}` : "Timer off"
            : `${fading ? "Fading out" : "Stops in"} ${formatTimeLeft(left)}`}
        </p>
      </div>
    </section>
  );
}
