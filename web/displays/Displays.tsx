// The display panel: the waveform view (shown by default; the developer panel can hide it) and
// the spectrogram (hidden by default, toggled by a button; spec 2).

import { useState } from "react";
import { useDisplayPrefs } from "../state/display-prefs";
import { SpectrogramDisplay } from "./SpectrogramDisplay";
import { WaveformDisplay } from "./WaveformDisplay";

export function Displays() {
  const [spectrogram, setSpectrogram] = useState(false);
  const waveform = useDisplayPrefs((s) => s.waveformVisible);
  return (
    <section className="panel displays" aria-label="Displays">
      {waveform && <WaveformDisplay />}
      <button
        type="button"
        className="secondary"
        aria-expanded={spectrogram}
        aria-controls="spectrogram"
        onClick={() => setSpectrogram((v) => !v)}
      >
        {spectrogram ? "Hide spectrogram" : "Show spectrogram"}
      </button>
      <div id="spectrogram" hidden={!spectrogram}>
        {spectrogram && <SpectrogramDisplay />}
      </div>
    </section>
  );
}
