// The studio screen (/, /app, /preset/:id): hero, demo offer, frequency panel, displays, effects,
// transport, and the demo cards (above the locked studio for anonymous visitors, below it otherwise). Role gating (spec 6): anonymous visitors see it dimmed and disabled behind the
// sign-in card. Ctrl+P (outside text fields) replaces it with the pricing screen until Back.

import { useCallback, useEffect, useState } from "react";
import { ExportButton } from "../export/ExportButton";
import { useEntitlements, useStudioGate } from "../account/hooks";
import { hasAdminStudioTools } from "../account/studio-gating";
import { SIGN_IN_NOTE_ID, SignInCard } from "../account/SignInCard";
import { DemoPanel } from "../demo/DemoPanel";
import { DemoCards } from "../demo-cards/DemoCards";
import { PricingScreen } from "../payments/PricingScreen";
import { QuantumPanel } from "../quantum/QuantumPanel";
import { SharePresetButton } from "../presets/SharePresetButton";
import { VideoExportButton } from "../video/VideoExportButton";
import { useSharedPreset } from "../presets/use-shared-preset";
import { ChannelCard } from "./ChannelCard";
import { Displays } from "./Displays";
import { DurationInput } from "./DurationInput";
import { EffectsGrid } from "./EffectsGrid";
import { PlayButton } from "./PlayButton";
import { isPricingShortcut } from "./shortcuts";

function usePricingScreen(): [open: boolean, close: () => void] {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isPricingShortcut(e)) return;
      e.preventDefault(); // not the print dialog
      setOpen(true);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return [open, useCallback(() => setOpen(false), [])];
}

export function StudioPage() {
  const gate = useStudioGate();
  const adminTools = hasAdminStudioTools(useEntitlements());
  const [pricingOpen, closePricing] = usePricingScreen();
  useSharedPreset();

  if (pricingOpen) {
    return (
      <main id="main" className="studio">
        <PricingScreen onClose={closePricing} />
      </main>
    );
  }

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
      {/* The demo cards play for everyone: a visitor meets them before the locked studio. */}
      {gate.level === "anonymous" && <DemoCards />}
      {(gate.level === "free" || gate.level === "demo") && <DemoPanel />}
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
        {adminTools && <QuantumPanel />}
        <Displays />
        <EffectsGrid />
        <section className="panel actions" aria-label="Playback">
          <DurationInput />
          {gate.label && <p className="tier-label">{gate.label}</p>}
          <PlayButton />
          <ExportButton />
          {adminTools && <VideoExportButton />}
          <SharePresetButton />
        </section>
      </fieldset>
      {gate.level !== "anonymous" && <DemoCards />}
    </main>
  );
}
