// Entry: creates the store and audio client outside React, then mounts the app.

import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { AudioClient } from "./audio/audio-client";
import { studioStore } from "./state/studio-store";
import { StudioContext } from "./studio/studio-context";
import "./styles/app.css";

const audio = new AudioClient(studioStore);
// Read-only handle for end-to-end tests and the developer panel (analysers, context state).
(window as unknown as { __toneStudio: unknown }).__toneStudio = { audio, store: studioStore };

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <StudioContext.Provider value={{ store: studioStore, audio }}>
      <App />
    </StudioContext.Provider>
  </StrictMode>,
);
