// The display panel: the waveform view (shown by default) and the spectrogram (hidden by
// default, toggled by a button; spec 2).

import { useState } from "react";
import { SpectrogramDisplay } from "./SpectrogramDisplay";
import { WaveformDisplay } from "./WaveformDisplay";

export function Displays() {
  const [spectrogram, setSpectrogram] = useState(false);
  return (
    <section className="panel displays" aria-label="Displays">
      <WaveformDisplay />
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
