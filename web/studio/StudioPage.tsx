// The studio screen (/, /app, /preset/:id): hero, frequency panel, waveform display, transport.

import { ExportButton } from "../export/ExportButton";
import { ChannelCard } from "./ChannelCard";
import { DurationInput } from "./DurationInput";
import { EffectsGrid } from "./EffectsGrid";
import { PlayButton } from "./PlayButton";
import { WaveformDisplay } from "./WaveformDisplay";

export function StudioPage() {
  return (
    <main id="main" className="studio">
      <section className="hero">
        <h1>Precise tones for focus, sleep and meditation</h1>
        <p>
          Four channels from 0 to 20000 Hz, band-limited waveforms and click-free changes, rendered
          by one WebAssembly engine at 48 kHz.
        </p>
      </section>
      <section className="panel" aria-labelledby="freq-title">
        <h2 id="freq-title">Frequencies</h2>
        <p id="frequency-help" className="help">Please enter valid frequency between 20-20000 Hz</p>
        <div className="channels">
          {[1, 2, 3, 4].map((id) => (
            <ChannelCard key={id} id={id} />
          ))}
        </div>
      </section>
      <section className="panel" aria-label="Displays">
        <WaveformDisplay />
      </section>
      <EffectsGrid />
      <section className="panel actions" aria-label="Playback">
        <DurationInput />
        <PlayButton />
        <ExportButton />
      </section>
    </main>
  );
}
