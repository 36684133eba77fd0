// Play / stop as one action shared by the Play Audio button and the Space shortcut: one toggle
// at a time per audio client, the spec's toast on failure (section 8; engine errors are only
// logged). Call it from the click or key handler: the audio context starts inside that gesture.

import { toast } from "sonner";
import type { StoreApi } from "zustand/vanilla";
import type { AudioClient } from "../audio/audio-client";
import type { StudioStore } from "../state/studio-store";

export const PLAYBACK_ERROR = "❌ Failed to toggle playback. Please try again.";

const busy = new WeakSet<object>();

/** Starts or stops the studio; resolves when done (false when another toggle was in progress). */
export async function togglePlayback(store: StoreApi<StudioStore>, audio: Pick<AudioClient, "toggle">): Promise<boolean> {
  if (busy.has(audio)) return false;
  busy.add(audio);
  try {
    await audio.toggle();
    return true;
  } catch (err) {
    console.error(err);
    store.getState().setPlaying(false);
    toast.error(PLAYBACK_ERROR);
    return false;
  } finally {
    busy.delete(audio);
  }
}
