// The Recordings panel (the Session section): record a take from the microphone (the browser's
// permission prompt explained first; a clear text when it is refused or there is no microphone),
// listen back, save it to the account, and place saved recordings in the session: at a time, at a
// timeline step, repeated every N minutes or looped under the whole session, each trimmed and at
// its own level (dB or %), and ticked to travel with a shared preset. Monthly, Commercial and
// admins (api/rules/plan-access.ts mayRecordVoice; the API checks again).

import { useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import { mayRecordVoice } from "../../api/rules/plan-access";
import { RECORDING_TEXT } from "../../api/rules/recordings";
import {
  MAX_RECORDING_PLACEMENTS, MAX_RECORDING_SECONDS, MAX_REPEAT_MINUTES, RECORDING_MAX_DB, RECORDING_MIN_DB, RECORDING_RATE,
  dbToGain, gainToDb, type RecordingPlacement,
} from "../../dsp/host/model/recordings";
import { announce } from "../a11y/announcer";
import { useEntitlements } from "../account/hooks";
import { useStudio } from "../state/studio-context";
import { MicCapture } from "./capture";
import * as M from "./messages";
import { deleteRecording, fetchPlaced, recordingsStore, refreshRecordings, saveRecording } from "./store";
import { clock } from "./wav";
import "./recordings.css";

type When = "at" | "step" | "every" | "loop";

function whenOf(p: RecordingPlacement): When {
  if (p.loop) return "loop";
  if (p.every > 0) return "every";
  if (p.step !== undefined) return "step";
  return "at";
}

// ---- listening back: one AudioContext at 48 kHz for the panel ----
let listenContext: AudioContext | null = null;
let listening: AudioBufferSourceNode | null = null;

function stopListening(): void {
  try {
    listening?.stop();
  } catch {
    // already ended
  }
  listening = null;
}

/** Plays 16-bit PCM [from, to) seconds at `gain`; resolves when it ends or is stopped. */
function listen(pcm: Int16Array, from: number, to: number, gain: number, onEnd: () => void): void {
  stopListening();
  listenContext ??= new AudioContext({ sampleRate: RECORDING_RATE });
  const a = Math.max(0, Math.round(from * RECORDING_RATE));
  const b = Math.min(pcm.length, to > 0 ? Math.round(to * RECORDING_RATE) : pcm.length);
  if (b <= a) return onEnd();
  const buffer = listenContext.createBuffer(1, b - a, RECORDING_RATE);
  const ch = buffer.getChannelData(0);
  for (let i = a; i < b; i++) ch[i - a] = (pcm[i] / 32768) * gain;
  const src = listenContext.createBufferSource();
  src.buffer = buffer;
  src.connect(listenContext.destination);
  src.onended = () => {
    if (listening === src) listening = null;
    onEnd();
  };
  listening = src;
  void listenContext.resume();
  src.start();
}

export function RecordingsPanel() {
  const ent = useEntitlements();
  const allowed = mayRecordVoice(ent.facts);
  return (
    <section className="panel recordings" aria-labelledby="rec-title" data-testid="recordings-panel">
      <h2 id="rec-title">{M.TITLE}</h2>
      <p className="help">{M.INTRO}</p>
      {!ent.signedIn ? <p className="help">{M.SIGN_IN}</p> : !allowed ? <p className="rec-locked" data-testid="recordings-locked">{RECORDING_TEXT.needsPlan}</p> : <Recorder />}
    </section>
  );
}

function Recorder() {
  const store = useStudio();
  const placements = useStore(store, (s) => s.recordings) ?? [];
  const list = useStore(recordingsStore, (s) => s.list);
  const clips = useStore(recordingsStore, (s) => s.clips);
  const failed = useStore(recordingsStore, (s) => s.failed);
  const capture = useRef<MicCapture | null>(null);
  const [recording, setRecording] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [take, setTake] = useState<Int16Array | null>(null);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [playing, setPlaying] = useState<string | null>(null);

  useEffect(() => {
    // Placed recordings whose audio could not be fetched before (signed out then, offline) again.
    fetchPlaced((store.getState().recordings ?? []).map((p) => p.id));
  }, [store]);
  useEffect(() => {
    if (list === null) refreshRecordings().catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, [list]);
  useEffect(() => {
    if (!recording) return;
    const t = setInterval(() => setElapsed(capture.current?.seconds ?? 0), 250);
    return () => clearInterval(t);
  }, [recording]);
  useEffect(() => () => {
    stopListening();
    void capture.current?.stop();
  }, []);

  const stop = async () => {
    const c = capture.current;
    if (!c) return;
    capture.current = null;
    const pcm = await c.stop();
    setRecording(false);
    setTake(pcm);
    setName(`Take ${new Date().toLocaleString([], { hour: "2-digit", minute: "2-digit" })}`);
    announce(M.takeReady(clock(pcm.length / RECORDING_RATE)));
  };
  const record = async () => {
    setError(null);
    setTake(null);
    try {
      capture.current = await MicCapture.start(() => void stop());
      setElapsed(0);
      setRecording(true);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      setError(text);
      announce(text);
    }
  };
  const save = async () => {
    if (!take) return;
    setBusy(true);
    setError(null);
    try {
      const r = await saveRecording(name.trim() || "Take", take);
      setTake(null);
      announce(M.saved(r.name));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const toggleListen = (key: string, pcm: Int16Array, from: number, to: number, gain: number) => {
    if (playing === key) {
      stopListening();
      setPlaying(null);
      return;
    }
    setPlaying(key);
    listen(pcm, from, to, gain, () => setPlaying((p) => (p === key ? null : p)));
  };
  const place = (id: string, recName: string) => {
    const p: RecordingPlacement = { id, name: recName, trimStart: 0, trimEnd: 0, gainDb: 0, at: 0, every: 0, loop: false };
    store.getState().setRecordings([...placements, p].slice(0, MAX_RECORDING_PLACEMENTS));
    announce(M.placed(recName));
  };
  const remove = async (id: string, recName: string) => {
    try {
      await deleteRecording(id);
      store.getState().setRecordings(placements.filter((p) => p.id !== id));
      announce(M.deleted(recName));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  const update = (i: number, patch: Partial<RecordingPlacement>) =>
    store.getState().setRecordings(placements.map((p, k) => (k === i ? { ...p, ...patch } : p)));

  return (
    <>
      <p id="rec-permission" className="help">{M.PERMISSION_NOTE}</p>
      <div className="rec-row">
        <button type="button" className={recording ? "rec-stop" : "rec-record"} aria-describedby="rec-permission" disabled={busy} onClick={() => void (recording ? stop() : record())}>
          {recording ? M.STOP_RECORDING : M.RECORD}
        </button>
        {recording && (
          <span className="rec-time" role="timer" data-testid="rec-time">{M.recordingNow(clock(elapsed), clock(MAX_RECORDING_SECONDS))}</span>
        )}
      </div>
      {error && <p className="form-error" role="alert" data-testid="rec-error">{error}</p>}
      {take && (
        <div className="rec-take" data-testid="rec-take">
          <p>{M.takeReady(clock(take.length / RECORDING_RATE))}</p>
          <div className="rec-row">
            <button type="button" className="secondary" onClick={() => toggleListen("take", take, 0, 0, 1)}>{playing === "take" ? M.STOP_LISTENING : M.LISTEN}</button>
            <label className="rec-field">
              {M.NAME_LABEL}
              <input type="text" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
            </label>
            <button type="button" disabled={busy} onClick={() => void save()}>{M.SAVE}</button>
            <button type="button" className="secondary" onClick={() => setTake(null)}>{M.DISCARD}</button>
          </div>
        </div>
      )}

      <h3 className="rec-head">{M.SAVED_TITLE}</h3>
      {list && list.length === 0 && <p className="help">{M.NONE_SAVED}</p>}
      <ul className="rec-list" aria-label={M.SAVED_TITLE}>
        {(list ?? []).map((r) => {
          const clip = clips.get(r.id);
          return (
            <li key={r.id} className="rec-item">
              <span className="rec-name">{r.name}</span> <span className="rec-len">{clock(r.duration)}</span>
              <div className="rec-row">
                {clip && (
                  <button type="button" className="secondary" aria-label={`${playing === r.id ? M.STOP_LISTENING : M.LISTEN}: ${r.name}`} onClick={() => toggleListen(r.id, clip.pcm, 0, 0, 1)}>
                    {playing === r.id ? M.STOP_LISTENING : M.LISTEN}
                  </button>
                )}
                <button type="button" disabled={placements.length >= MAX_RECORDING_PLACEMENTS} aria-label={`${M.PLACE}: ${r.name}`} onClick={() => place(r.id, r.name)}>{M.PLACE}</button>
                <button type="button" className="secondary" aria-label={`${M.DELETE}: ${r.name}`} onClick={() => void remove(r.id, r.name)}>{M.DELETE}</button>
              </div>
            </li>
          );
        })}
      </ul>

      <h3 className="rec-head">{M.PLACED_TITLE}</h3>
      {placements.length === 0 && <p className="help">{M.NONE_PLACED}</p>}
      <ul className="rec-list" aria-label={M.PLACED_TITLE}>
        {placements.map((p, i) => (
          <Placement
            key={`${p.id}-${i}`}
            p={p}
            index={i}
            onChange={(patch) => update(i, patch)}
            onRemove={() => store.getState().setRecordings(placements.filter((_, k) => k !== i))}
            missing={clips.has(p.id) ? null : (failed[p.id] ?? "")}
            listening={playing === `p${i}`}
            onListen={() => {
              const c = clips.get(p.id);
              if (c) toggleListen(`p${i}`, c.pcm, p.trimStart, p.trimEnd, dbToGain(p.gainDb));
            }}
          />
        ))}
      </ul>
    </>
  );
}

function NumberField(props: { label: string; value: number; min: number; max: number; step: number; onCommit: (v: number) => void; testId?: string }) {
  // What is typed, until it is committed (Enter or leaving the box); otherwise the value.
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? String(props.value);
  const commit = () => {
    const v = Number.parseFloat(text);
    setDraft(null);
    if (Number.isFinite(v)) props.onCommit(Math.min(props.max, Math.max(props.min, v)));
  };
  return (
    <label className="rec-field">
      {props.label}
      <input
        type="number"
        inputMode="decimal"
        value={text}
        min={props.min}
        max={props.max}
        step={props.step}
        data-testid={props.testId}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") commit();
        }}
      />
    </label>
  );
}

function Placement(props: {
  p: RecordingPlacement;
  index: number;
  missing: string | null;
  listening: boolean;
  onChange: (patch: Partial<RecordingPlacement>) => void;
  onRemove: () => void;
  onListen: () => void;
}) {
  const { p, index, onChange } = props;
  const steps = useStore(useStudio(), (s) => s.timeline?.steps) ?? [];
  const when = whenOf(p);
  const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
  const percent = round(dbToGain(p.gainDb) * 100, 1);
  const setWhen = (w: When) => {
    if (w === "loop") onChange({ loop: true, every: 0, step: undefined });
    else if (w === "every") onChange({ loop: false, every: p.every > 0 ? p.every : 5, step: undefined });
    else if (w === "step") onChange({ loop: false, every: 0, step: steps.length > 1 ? 1 : 0 });
    else onChange({ loop: false, every: 0, step: undefined });
  };
  const id = `rec-p${index}`;
  return (
    <li className="rec-item rec-placement" data-testid={`rec-placement-${index}`}>
      <span className="rec-name">{p.name}</span>
      {props.missing !== null && <p className="help" role="status">{M.notLoaded(p.name)}{props.missing ? ` ${props.missing}` : ""}</p>}
      <div className="rec-grid">
        <NumberField label="Level (dB)" value={round(p.gainDb, 1)} min={RECORDING_MIN_DB} max={RECORDING_MAX_DB} step={0.5} testId={`${id}-db`} onCommit={(v) => onChange({ gainDb: v })} />
        <NumberField
          label="Level (%)"
          value={percent}
          min={0.1}
          max={round(dbToGain(RECORDING_MAX_DB) * 100, 0)}
          step={1}
          testId={`${id}-percent`}
          onCommit={(v) => onChange({ gainDb: round(gainToDb(v / 100), 2) })}
        />
        <NumberField label="Trim start (s)" value={p.trimStart} min={0} max={MAX_RECORDING_SECONDS} step={0.1} testId={`${id}-trim-start`} onCommit={(v) => onChange({ trimStart: v })} />
        <NumberField label="Trim end (s, 0 = end)" value={p.trimEnd} min={0} max={MAX_RECORDING_SECONDS} step={0.1} testId={`${id}-trim-end`} onCommit={(v) => onChange({ trimEnd: v })} />
        <label className="rec-field">
          When
          <select value={when} data-testid={`${id}-when`} onChange={(e) => setWhen(e.target.value as When)}>
            <option value="at">{M.WHEN_AT}</option>
            <option value="step" disabled={steps.length === 0}>{M.WHEN_STEP}</option>
            <option value="every">{M.WHEN_EVERY}</option>
            <option value="loop">{M.WHEN_LOOP}</option>
          </select>
        </label>
        {when === "step" && (
          <label className="rec-field">
            Step
            <select value={p.step ?? 0} data-testid={`${id}-step`} onChange={(e) => onChange({ step: Number(e.target.value) })}>
              {steps.map((s, k) => (
                <option key={k} value={k}>{`Step ${k + 1} at ${clock(s.at)}${s.label ? ` (${s.label})` : ""}`}</option>
              ))}
            </select>
          </label>
        )}
        {(when === "at" || when === "every" || when === "loop") && (
          <NumberField label="Starts at (s)" value={p.at} min={0} max={43200} step={1} testId={`${id}-at`} onCommit={(v) => onChange({ at: v })} />
        )}
        {when === "every" && (
          <NumberField label="Every (minutes)" value={p.every} min={0.1} max={MAX_REPEAT_MINUTES} step={0.5} testId={`${id}-every`} onCommit={(v) => onChange({ every: v })} />
        )}
      </div>
      <div className="rec-row">
        <label className="rec-check">
          <input type="checkbox" checked={p.shared === true} onChange={(e) => onChange({ shared: e.target.checked })} />
          Include in shared presets
        </label>
        <button type="button" className="secondary" disabled={props.missing !== null} aria-label={`${props.listening ? M.STOP_LISTENING : M.LISTEN}: ${p.name} as placed`} onClick={props.onListen}>
          {props.listening ? M.STOP_LISTENING : M.LISTEN}
        </button>
        <button type="button" className="secondary" aria-label={`${M.REMOVE_PLACEMENT}: ${p.name}`} onClick={props.onRemove}>{M.REMOVE_PLACEMENT}</button>
      </div>
    </li>
  );
}
