// The Quality Test's render: 5 s of the studio's current state through the export worker (the
// engine, the state handling and the PCM16 + dither of Export WAV), returned as planar floats.

import * as Comlink from "comlink";
import type { SoundState } from "../../dsp/host/schema/state";
import { engineModule } from "../export/export-runner";
import ExportWorker from "../export/export.worker.ts?worker";
import type { ExportWorkerApi } from "../export/protocol";
import { wavToPlanar, type PlanarAudio } from "./planar";
import { soundtrackStore } from "../audio/soundtrack-store";
import { recordingClips } from "../recordings/store";

/** Spec 9: the quality comparison renders 5 seconds at 48 kHz stereo. */
export const CLIP_SECONDS = 5;

export async function renderClip(state: SoundState, seconds = CLIP_SECONDS): Promise<PlanarAudio> {
  const module = await engineModule();
  const worker = new ExportWorker({ name: "quality-render" });
  const api = Comlink.wrap<ExportWorkerApi>(worker);
  try {
    const crashed = new Promise<never>((_, reject) => {
      worker.addEventListener("error", (e) => reject(new Error(e.message || "The render worker stopped")));
    });
    const file = await Promise.race([api.renderClip({ module, state: { channels: state.channels, effects: state.effects, timeline: state.timeline, voices: state.voices, recordings: state.recordings }, duration: seconds, soundtrack: soundtrackStore.getState().audio, recordings: recordingClips() }), crashed]);
    return wavToPlanar(file);
  } finally {
    api[Comlink.releaseProxy]();
    worker.terminate();
  }
}
