// The soundtrack file the session's mix voices play (an SBaGen schedule's `-m FILE`): the user
// picks it, it is decoded here once at 48 kHz (the rate of the studio's AudioContext and of every
// export) with the same decoders and resampler as the CLI (dsp/host/soundtrack), and the decoded
// audio goes to the live engine (audio-client.ts) and to each export (export-runner.ts), so a WAV
// from the studio has the CLI's bytes. It lives beside the studio state, not in it: presets and
// share links name the file (AudioState.soundtrack), never carry megabytes of audio. Nothing is
// stored; a reload asks for the file again.

import { createStore } from "zustand/vanilla";
import type { SoundtrackAudio } from "../../dsp/host/model/soundtrack";

/** The rate the studio plays and exports at (audio-client.ts asks its AudioContext for it). */
export const STUDIO_RATE = 48000;

export interface SoundtrackState {
  /** The decoded file, or null. */
  audio: SoundtrackAudio | null;
  /** True while a chosen file is being decoded. */
  loading: boolean;
  /** Why the last chosen file could not be used. */
  error: string | null;
}

export const soundtrackStore = createStore<SoundtrackState>()(() => ({ audio: null, loading: false, error: null }));

let latest = 0;

/** Decodes `file` and makes it the soundtrack; resolves to the error text, or null when it plays. */
export async function chooseSoundtrack(file: File): Promise<string | null> {
  const ticket = ++latest;
  soundtrackStore.setState({ loading: true, error: null });
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Loaded on demand: the decoders are only fetched by sessions that have a soundtrack.
    const { loadSoundtrack } = await import("../../dsp/host/soundtrack/decode");
    const audio = await loadSoundtrack(bytes, { name: file.name, rate: STUDIO_RATE });
    if (ticket === latest) soundtrackStore.setState({ audio, loading: false, error: null });
    return null;
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    if (ticket === latest) soundtrackStore.setState({ loading: false, error });
    return error;
  }
}

/** Forgets the soundtrack (its mix voices go silent). */
export function clearSoundtrack(): void {
  latest++;
  soundtrackStore.setState({ audio: null, loading: false, error: null });
}
