// The Voices panel's soundtrack: which file the session's Soundtrack (mix) voices play, whether it
// is loaded on this device, and the file picker. Picking a file decodes it (soundtrack-store.ts)
// and names it in the session, so a preset or .sbg written afterwards names the file that played.

import { useRef } from "react";
import { useStore } from "zustand";
import { announce } from "../a11y/announcer";
import { chooseSoundtrack, clearSoundtrack, soundtrackStore } from "../audio/soundtrack-store";
import { useStudio } from "../state/studio-context";
import {
  CHOOSE_SOUNDTRACK, REMOVE_SOUNDTRACK, SOUNDTRACK_HELP, SOUNDTRACK_LOADING, SOUNDTRACK_NONE, SOUNDTRACK_TITLE, soundtrackLoaded, soundtrackMissing,
} from "./messages";

export function SoundtrackRow({ locked }: { locked: boolean }) {
  const store = useStudio();
  const named = useStore(store, (s) => s.soundtrack?.name ?? null);
  const audio = useStore(soundtrackStore, (s) => s.audio);
  const loading = useStore(soundtrackStore, (s) => s.loading);
  const error = useStore(soundtrackStore, (s) => s.error);
  const input = useRef<HTMLInputElement>(null);

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = "";
    if (!file) return;
    const failed = await chooseSoundtrack(file);
    if (failed) {
      announce(failed);
      return;
    }
    store.getState().setSoundtrack({ name: file.name });
    const a = soundtrackStore.getState().audio;
    if (a) announce(soundtrackLoaded(a.name, a.frames / a.rate));
  };
  const remove = () => {
    clearSoundtrack();
    store.getState().setSoundtrack(undefined);
  };

  const status = loading
    ? SOUNDTRACK_LOADING
    : audio
      ? soundtrackLoaded(audio.name, audio.frames / audio.rate)
      : named
        ? soundtrackMissing(named)
        : SOUNDTRACK_NONE;
  return (
    <section className="tl-soundtrack" aria-labelledby="tl-soundtrack-head">
      <h3 id="tl-soundtrack-head" className="tl-voices-head">{SOUNDTRACK_TITLE}</h3>
      <p className="help" id="tl-soundtrack-help">{SOUNDTRACK_HELP}</p>
      <p className="tl-soundtrack-status" data-testid="soundtrack-status" aria-live="polite">{status}</p>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="tl-voices-actions">
        <button type="button" className="secondary" disabled={locked || loading} aria-describedby="tl-soundtrack-help" onClick={() => input.current?.click()}>
          {CHOOSE_SOUNDTRACK}
        </button>
        <input
          ref={input}
          type="file"
          accept=".wav,.flac,.ogg,.oga,.mp3,audio/wav,audio/flac,audio/ogg,audio/mpeg"
          hidden
          tabIndex={-1}
          aria-hidden="true"
          data-testid="soundtrack-file"
          onChange={(e) => void pick(e.target.files?.[0])}
        />
        {(audio || named) && (
          <button type="button" className="secondary" disabled={locked} onClick={remove}>{REMOVE_SOUNDTRACK}</button>
        )}
      </div>
    </section>
  );
}
