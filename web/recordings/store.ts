// The account's voice recordings in the page: the list the API keeps (/api/recordings), the audio
// of each one the session places, decoded once into a 16-bit mono clip (what the live engine
// (web/audio/audio-client.ts), every WAV export (web/export/export-runner.ts) and the Quality Test
// play), and the calls that save, fetch and delete. The session names its recordings by id
// (AudioState.recordings); the audio lives here, beside the state, as the soundtrack's does. A
// shared preset's link fetches the recordings it lists with ?preset= (the API checks it lists them).

import { createStore } from "zustand/vanilla";
import type { RecordingClip } from "../../dsp/host/model/recordings";
import type { RecordingInfo } from "../../api/rules/recordings";
import { ApiRequestError, REQUEST_FAILED, requestJson } from "../account/api";
import { sessionStore } from "../account/session-store";
import { clipFromWav, monoWav } from "./wav";

export interface RecordingsState {
  /** The account's recordings (newest first); null until listed. */
  list: RecordingInfo[] | null;
  /** Decoded audio by recording id. */
  clips: ReadonlyMap<string, RecordingClip>;
  /** Why a placed recording's audio could not be fetched, by id. */
  failed: Readonly<Record<string, string>>;
}

export const recordingsStore = createStore<RecordingsState>()(() => ({ list: null, clips: new Map(), failed: {} }));

/** The clips the engine and the exports take. */
export function recordingClips(): RecordingClip[] {
  return [...recordingsStore.getState().clips.values()];
}

const token = (): string | null => sessionStore().getState().token;

async function failure(res: Response): Promise<ApiRequestError> {
  const data = (await res.json().catch(() => null)) as { error?: unknown } | null;
  return new ApiRequestError(typeof data?.error === "string" && data.error ? data.error : REQUEST_FAILED, res.status);
}

export async function refreshRecordings(): Promise<RecordingInfo[]> {
  const { recordings } = await requestJson<{ recordings: RecordingInfo[] }>("/api/recordings", { token: token() });
  recordingsStore.setState({ list: recordings });
  return recordings;
}

function addClip(clip: RecordingClip): void {
  const clips = new Map(recordingsStore.getState().clips);
  clips.set(clip.id, clip);
  recordingsStore.setState({ clips });
}

/** Saves a take (16-bit mono at 48 kHz) as a recording of the account; its clip is kept. */
export async function saveRecording(name: string, pcm: Int16Array): Promise<RecordingInfo> {
  const headers: Record<string, string> = { "Content-Type": "audio/wav", Accept: "application/json" };
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  const res = await fetch(`/api/recordings?name=${encodeURIComponent(name)}`, { method: "POST", headers, body: monoWav(pcm) });
  if (!res.ok) throw await failure(res);
  const { recording } = (await res.json()) as { recording: RecordingInfo };
  addClip({ id: recording.id, rate: 48000, frames: pcm.length, pcm });
  recordingsStore.setState({ list: [recording, ...(recordingsStore.getState().list ?? [])] });
  return recording;
}

/** Fetches and decodes a recording's audio unless it is here (own, or through a shared preset). */
export async function loadClip(id: string, presetId?: string): Promise<RecordingClip> {
  const have = recordingsStore.getState().clips.get(id);
  if (have) return have;
  const headers: Record<string, string> = {};
  const t = token();
  if (t && !presetId) headers.Authorization = `Bearer ${t}`;
  const res = await fetch(`/api/recordings/${encodeURIComponent(id)}/audio${presetId ? `?preset=${encodeURIComponent(presetId)}` : ""}`, { headers });
  if (!res.ok) throw await failure(res);
  const clip = clipFromWav(id, new Uint8Array(await res.arrayBuffer()));
  addClip(clip);
  return clip;
}

export async function deleteRecording(id: string): Promise<void> {
  const headers: Record<string, string> = {};
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  const res = await fetch(`/api/recordings/${encodeURIComponent(id)}`, { method: "DELETE", headers });
  if (!res.ok && res.status !== 404) throw await failure(res);
  const clips = new Map(recordingsStore.getState().clips);
  clips.delete(id);
  recordingsStore.setState({ clips, list: (recordingsStore.getState().list ?? []).filter((r) => r.id !== id) });
}

/** The shared preset this page was opened from (/preset/{id}), whose recordings its link fetches. */
export function sharedPresetId(path = typeof location === "undefined" ? "" : location.pathname): string | undefined {
  return /^\/preset\/([A-Za-z0-9_-]{1,64})$/.exec(path)?.[1];
}

const asked = new Set<string>();

/** Fetches the audio of every placed recording not here yet (once each while it is asked for; a
 *  failure is noted and tried again at the next call: a change of the placements, the panel
 *  opening). */
export function fetchPlaced(ids: readonly string[]): void {
  for (const id of ids) {
    if (asked.has(id) || recordingsStore.getState().clips.has(id)) continue;
    asked.add(id);
    const preset = sharedPresetId();
    loadClip(id)
      .catch((err: unknown) => (preset ? loadClip(id, preset) : Promise.reject(err)))
      .catch((err: unknown) => {
        asked.delete(id);
        const failed = { ...recordingsStore.getState().failed, [id]: err instanceof Error ? err.message : String(err) };
        recordingsStore.setState({ failed });
      });
  }
}
