// Entry: creates the store and audio client outside React, then mounts the app.

import "./zod-jitless"; // first: before any zod schema is built
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./shell/App";
import { AudioClient } from "./audio/audio-client";
import { bindBackgroundPlayback, preferPlaybackAudioSession } from "./audio/background-playback";
import { DEMO_CARDS_BY_ID } from "./demo-cards/presets";
import { AppErrorBoundary } from "./shell/AppErrorBoundary";
import { studioStore } from "./state/studio-store";
import { displayFrames } from "./displays/display-frames";
import { StudioContext } from "./state/studio-context";
import { registerAppServiceWorker } from "./pwa/register";
import "./styles/app.css";

const audio = new AudioClient(studioStore);
// Sound keeps going on a locked phone or in a background tab, with lock-screen controls.
preferPlaybackAudioSession();
bindBackgroundPlayback(audio, studioStore, {
  mediaSession: "mediaSession" in navigator ? navigator.mediaSession : undefined,
  makeMetadata: (m) => new MediaMetadata({ title: m.title, artist: m.artist, album: "Tone Studio" }),
  cards: DEMO_CARDS_BY_ID,
});
// Read-only handle for end-to-end tests, the UI bench and the developer panel (analysers,
// context state, frames drawn by each display).
(window as unknown as { __toneStudio: unknown }).__toneStudio = { audio, store: studioStore, displayFrames };

// Installable and offline (web/pwa/): the service worker of production builds, after the page
// has loaded so that its precache downloads do not compete with the first paint.
if (import.meta.env.PROD) {
  window.addEventListener("load", () => void registerAppServiceWorker(), { once: true });
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <StudioContext.Provider value={{ store: studioStore, audio }}>
      {/* The routes have their own boundary inside the page frame; this one catches the rest. */}
      <AppErrorBoundary>
        <App />
      </AppErrorBoundary>
    </StudioContext.Provider>
  </StrictMode>,
);
