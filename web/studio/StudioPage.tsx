// The studio screen (/, /app, /preset/:id): hero, demo offer, frequency panel, displays, effects,
// transport, and the demo cards (above the locked studio for anonymous visitors, below it otherwise). Role gating (spec 6): anonymous visitors see it dimmed and disabled behind the
// sign-in card. Ctrl+P (outside text fields) replaces it with the pricing screen until Back; Space
// and Ctrl+F are the other studio shortcuts (use-studio-shortcuts.ts).

import { DevPanel } from "../admin/DevPanel";
import { ExportButton } from "../export/ExportButton";
import { useEntitlements, useStudioGate } from "../account/hooks";
import { hasAdminStudioTools } from "../account/studio-gating";
import { SIGN_IN_NOTE_ID, SignInCard } from "../account/SignInCard";
import { DemoPanel } from "../demo/DemoPanel";
import { DemoCards } from "../demo-cards/DemoCards";
import { UploadToStoreButton } from "../marketplace/UploadToStoreButton";
import { HeadphoneCheckButton } from "../headphone/HeadphoneCheckButton";
import { HintBar } from "../onboarding/HintBar";
import { TutorialPanel } from "../onboarding/TutorialPanel";
import { PricingScreen } from "../payments/PricingScreen";
import { QuantumPanel } from "../quantum/QuantumPanel";
import { SharePresetButton } from "../presets/SharePresetButton";
import { VideoExportButton } from "../video/VideoExportButton";
import { useSharedPreset } from "../presets/use-shared-preset";
import { QualityPanel } from "../quality/QualityPanel";
import { TimelinePanel } from "../timeline/TimelinePanel";
import { SafeListeningPanel } from "../levels/SafeListeningPanel";
import { ChannelCard } from "../channels/ChannelCard";
import { Displays } from "../displays/Displays";
import { DurationInput } from "../transport/DurationInput";
import { EffectsGrid } from "../effects/EffectsGrid";
import { ExplainBlocks } from "./ExplainBlocks";
import { Hero } from "./Hero";
import { PlayButton } from "../transport/PlayButton";
import { useStudioShortcuts } from "./use-studio-shortcuts";

export function StudioPage() {
  const gate = useStudioGate();
  const adminTools = hasAdminStudioTools(useEntitlements());
  const [pricingOpen, closePricing] = useStudioShortcuts();
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
      <Hero />
      {gate.level === "anonymous" && <SignInCard />}
      {/* The demo cards play for everyone: a visitor meets them before the locked studio. */}
      {gate.level === "anonymous" && <DemoCards />}
      {(gate.level === "free" || gate.level === "demo") && <DemoPanel />}
      <TutorialPanel />
      <HintBar />
      <fieldset
        className="studio-body"
        disabled={gate.studioLocked}
        data-level={gate.level}
        aria-describedby={gate.level === "anonymous" ? SIGN_IN_NOTE_ID : undefined}
      >
        <legend className="sr-only">Studio controls</legend>
        <section className="panel" aria-labelledby="freq-title">
          <h2 id="freq-title">Frequencies</h2>
          <p id="frequency-help" className="help">Enter 0 to 20000 Hz, up to two decimals (0 switches a channel off); the slider runs from 1 Hz to 20 kHz on a log scale.</p>
          <div className="channels">
            {[1, 2, 3, 4].map((id) => (
              <ChannelCard key={id} id={id} />
            ))}
          </div>
        </section>
        {adminTools && <QuantumPanel />}
        <Displays />
        <EffectsGrid />
        <TimelinePanel />
        <section className="panel actions" aria-label="Playback">
          <DurationInput />
          {gate.label && <p className="tier-label">{gate.label}</p>}
          <PlayButton />
          <HeadphoneCheckButton />
          <ExportButton />
          {adminTools && <UploadToStoreButton />}
          <VideoExportButton />
          <SharePresetButton />
        </section>
        <SafeListeningPanel />
        <QualityPanel />
      </fieldset>
      {gate.level !== "anonymous" && <DemoCards />}
      <ExplainBlocks />
      <DevPanel />
    </main>
  );
}
