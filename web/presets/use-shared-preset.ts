// Opens a shared preset when the studio is shown at /preset/{id} or with ?config=: playback stops,
// the state is loaded into the studio store and the spec's toast is shown. Each history entry is
// loaded once (keyed by react-router's location.key), so coming back to the studio from the plans
// page with the Back button keeps the visitor's edits; a fresh visit to a link loads it again.

import { useEffect } from "react";
import { useLocation, useParams } from "react-router-dom";
import { toast } from "sonner";
import { useAudio, useStudio } from "../state/studio-context";
import { openSharedPreset, presetRequest } from "./shared-preset";

const opened = new Set<string>();
let latest: string | null = null;

export function useSharedPreset(): void {
  const store = useStudio();
  const audio = useAudio();
  const { key, search } = useLocation();
  const { id } = useParams();
  const request = presetRequest(search, id);
  const kind = request?.kind;
  const value = request ? (request.kind === "config" ? request.value : request.id) : null;

  useEffect(() => {
    if (!kind || value === null || opened.has(key)) return;
    opened.add(key);
    latest = key;
    void openSharedPreset(kind === "config" ? { kind, value } : { kind, id: value }).then((outcome) => {
      if (latest !== key) return; // the visitor has moved on to another link
      if (!outcome.ok) {
        toast.error(outcome.message);
        return;
      }
      if (store.getState().isPlaying) audio.stop(); // spec 4: loading a preset stops playback
      store.getState().load(outcome.state);
      toast.success(outcome.message);
    });
  }, [store, audio, key, kind, value]);
}
