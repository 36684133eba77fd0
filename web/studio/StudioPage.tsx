// The studio screen (/, /app, /preset/:id): hero, frequency panel, displays, effects, transport.
// Role gating (spec 6): anonymous visitors see it dimmed and disabled behind the sign-in card.

import { ExportButton } from "../export/ExportButton";
import { useEnforceStudioGate, useStudioGate } from "../account/hooks";
import { SIGN_IN_NOTE_ID, SignInCard } from "../account/SignInCard";
import { ChannelCard } from "./ChannelCard";
import { Displays } from "./Displays";
import { DurationInput } from "./DurationInput";
import { EffectsGrid } from "./EffectsGrid";
import { PlayButton } from "./PlayButton";
import { useAudio, useStudio } from "./studio-context";

export function StudioPage() {
  const gate = useStudioGate();
  useEnforceStudioGate(useStudio(), gate, useAudio());
  return (
    <main id="main" className="studio">
      <section className="hero">
        <h1>Precise tones for focus, sleep and meditation</h1>
        <p>
          Four channels from 0 to 20000 Hz, band-limited waveforms and click-free changes, rendered
          by one WebAssembly engine at 48 kHz.
        </p>
      </section>
      {gate.level === "anonymous" && <SignInCard />}
      <fieldset
        className="studio-body"
        disabled={gate.studioLocked}
        data-level={gate.level}
        aria-describedby={gate.level === "anonymous" ? SIGN_IN_NOTE_ID : undefined}
      >
        <legend className="sr-only">Studio controls</legend>
        <section className="panel" aria-labelledby="freq-title">
          <h2 id="freq-title">Frequencies</h2>
          <p id="frequency-help" className="help">Please enter valid frequency between 20-20000 Hz</p>
          <div className="channels">
            {[1, 2, 3, 4].map((id) => (
              <ChannelCard key={id} id={id} />
            ))}
          </div>
        </section>
        <Displays />
        <EffectsGrid />
        <section className="panel actions" aria-label="Playback">
          <DurationInput />
          {gate.label && <p className="tier-label">{gate.label}</p>}
          <PlayButton />
          <ExportButton />
        </section>
      </fieldset>
    </main>
  );
}
