// The transport bar, always in view: sticky at the top of the studio on a desktop, fixed at the
// bottom of the screen on a phone (like a music player). Play/Stop, elapsed and remaining time,
// the duration box, the master volume with its mute, a level meter (peak and RMS in dBFS and the
// limiter's gain reduction, from the figures the engine's worklet posts at display rate), Export
// WAV and Share; on a session with a timeline, the step that plays and a seek bar.
// Everything that moves while playing (times, meter, seek bar) is written into the DOM from
// timers and store subscriptions through refs, never through React state. On a phone the less
// used controls (duration, master volume, export, share) fold behind "More".

import { useEffect, useId, useRef, useState } from "react";
import { useStore } from "zustand";
import { ExportButton } from "../export/ExportButton";
import { SharePresetButton } from "../presets/SharePresetButton";
import { useAudio, useStudio } from "../state/studio-context";
import { DurationInput } from "./DurationInput";
import { PlayButton } from "./PlayButton";
import { stepNameAt } from "./seek";
import { dbfs, transportStore, type MeterFigures } from "./transport-store";
import "./transport.css";

/** How often the times, the step name and the seek bar move while playing. */
const CLOCK_MS = 250;
/** The meter's numbers are rewritten at most this often (the bars follow every reading). */
const METER_TEXT_MS = 250;
/** A seek waits this long for the seek bar to stop moving (a drag or held arrow restarts once). */
const SEEK_SETTLE_MS = 150;
/** The meter's scale: -60 dBFS at the left end, 0 at the right. */
const METER_FLOOR_DB = -60;

/** m:ss, or h:mm:ss from an hour. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

const fraction = (linear: number) => Math.min(1, Math.max(0, (dbfs(linear) - METER_FLOOR_DB) / -METER_FLOOR_DB));
const dbText = (linear: number) => (linear > 0 ? `${dbfs(linear).toFixed(1)}` : "-∞");

function LevelMeter() {
  const peakBar = useRef<HTMLSpanElement>(null);
  const rmsBar = useRef<HTMLSpanElement>(null);
  const text = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let lastText = 0;
    const show = (m: MeterFigures) => {
      peakBar.current?.style.setProperty("--level", String(fraction(m.peak)));
      rmsBar.current?.style.setProperty("--level", String(fraction(m.rms)));
      const now = performance.now();
      const silent = m.peak === 0;
      if (!text.current || (!silent && now - lastText < METER_TEXT_MS)) return;
      lastText = now;
      const gr = m.gain < 1 ? (-dbfs(m.gain)).toFixed(1) : "0.0";
      text.current.textContent = `Peak ${dbText(m.peak)} · RMS ${dbText(m.rms)} dBFS · GR ${gr} dB`;
    };
    show(transportStore.getState().meter);
    return transportStore.subscribe((s, prev) => {
      if (s.meter !== prev.meter) show(s.meter);
    });
  }, []);
  return (
    <div className="level-meter" role="group" aria-label="Level meter">
      <span className="meter-bars" aria-hidden="true">
        <span ref={peakBar} className="meter-bar peak" />
        <span ref={rmsBar} className="meter-bar rms" />
      </span>
      <span ref={text} className="meter-text">Peak -∞ · RMS -∞ dBFS · GR 0.0 dB</span>
    </div>
  );
}

function MasterVolume() {
  const volume = useStore(transportStore, (s) => s.masterVolume);
  const muted = useStore(transportStore, (s) => s.masterMuted);
  const percent = Math.round(volume * 100);
  return (
    <div className="master" role="group" aria-label="Master volume">
      <label className="master-volume">
        <span>Master {muted ? "muted" : `${percent} %`}</span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={percent}
          aria-label="Master volume"
          aria-valuetext={`${percent} %${muted ? ", muted" : ""}`}
          onChange={(e) => transportStore.getState().setMasterVolume(Number(e.target.value) / 100)}
        />
      </label>
      <button
        type="button"
        className="mixer-toggle"
        aria-pressed={muted}
        aria-label="Mute all"
        onClick={() => transportStore.getState().setMasterMuted(!muted)}
      >
        Mute
      </button>
    </div>
  );
}

export function TransportBar() {
  const store = useStudio();
  const audio = useAudio();
  const playing = useStore(store, (s) => s.isPlaying);
  const duration = useStore(store, (s) => s.duration);
  const hasSteps = useStore(store, (s) => (s.timeline?.steps.length ?? 0) > 0);
  const elapsed = useRef<HTMLSpanElement>(null);
  const remaining = useRef<HTMLSpanElement>(null);
  const step = useRef<HTMLSpanElement>(null);
  const seekBar = useRef<HTMLInputElement>(null);
  const seeking = useRef(false);
  const seekTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [more, setMore] = useState(false);
  const moreId = useId();

  useEffect(() => {
    const tick = () => {
      const pos = audio.playPosition() ?? 0;
      const total = store.getState().duration;
      if (elapsed.current) elapsed.current.textContent = clock(pos);
      // From the whole elapsed second, so that elapsed and remaining always add up to the duration.
      if (remaining.current) remaining.current.textContent = `-${clock(total - Math.floor(pos))}`;
      if (step.current) step.current.textContent = stepNameAt(store.getState(), pos) ?? "—";
      if (seekBar.current && !seeking.current) {
        seekBar.current.value = String(Math.floor(pos));
        seekBar.current.setAttribute("aria-valuetext", `${clock(pos)} of ${clock(total)}`);
      }
    };
    tick();
    if (!playing) return;
    const timer = setInterval(tick, CLOCK_MS);
    return () => clearInterval(timer);
  }, [audio, store, playing, duration, hasSteps]);

  useEffect(() => () => clearTimeout(seekTimer.current), []);
  const seek = (value: number) => {
    seeking.current = true;
    clearTimeout(seekTimer.current);
    seekTimer.current = setTimeout(() => {
      seeking.current = false;
      void audio.seek(value);
    }, SEEK_SETTLE_MS);
  };

  return (
    <section className="transport" aria-label="Playback" data-playing={playing} data-more={more}>
      <div className="transport-row">
        <PlayButton />
        <p className="transport-time">
          <span className="sr-only">Elapsed </span>
          <span ref={elapsed} className="time-elapsed">0:00</span>
          <span className="time-sep" aria-hidden="true"> / </span>
          <span className="sr-only">, remaining </span>
          <span ref={remaining} className="time-remaining">-{clock(duration)}</span>
        </p>
        <LevelMeter />
        <button
          type="button"
          className="transport-more"
          aria-expanded={more}
          aria-controls={moreId}
          onClick={() => setMore((m) => !m)}
        >
          More
        </button>
        <div className="transport-extra" id={moreId}>
          <MasterVolume />
          <DurationInput />
          <ExportButton />
          <SharePresetButton />
        </div>
      </div>
      {hasSteps && (
        <div className="transport-session">
          <p className="transport-step">
            Step: <span ref={step}>—</span>
          </p>
          <input
            ref={seekBar}
            type="range"
            className="seek"
            min={0}
            max={Math.max(1, Math.floor(duration))}
            step={1}
            defaultValue={0}
            aria-label="Seek in the session"
            disabled={!playing}
            onChange={(e) => seek(Number(e.target.value))}
          />
        </div>
      )}
    </section>
  );
}
