// The studio screen (/, /app, /preset/:id): the transport bar (always in view), the displays, and
// the sections as tabs (Channels, Effects, Session, Levels & sleep, admins' Quantum). Anonymous
// visitors get the hero, the sign-in card and the demo cards above the locked studio and the
// explanations under it; signed-in visitors get the studio first and the hero, demo cards and
// explanations folded under it ("About Tone Studio"). Role gating (spec 6): anonymous visitors see it dimmed and disabled behind the
// sign-in card. Ctrl+P (outside text fields) replaces it with the pricing screen until Back; Space
// and Ctrl+F are the other studio shortcuts (use-studio-shortcuts.ts).

import { DevPanel } from "../admin/DevPanel";
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
import { VideoExportButton } from "../video/VideoExportButton";
import { useSharedPreset } from "../presets/use-shared-preset";
import { QualityPanel } from "../quality/QualityPanel";
import { TimelinePanel } from "../timeline/TimelinePanel";
import { RecordingsPanel } from "../recordings/RecordingsPanel";
import { SafeListeningPanel } from "../levels/SafeListeningPanel";
import { ChannelCard } from "../channels/ChannelCard";
import { Displays } from "../displays/Displays";
import { EffectsGrid } from "../effects/EffectsGrid";
import { ExplainBlocks } from "./ExplainBlocks";
import { Hero } from "./Hero";
import { TransportBar } from "../transport/TransportBar";
import { StudioSections } from "./StudioSections";
import "./studio.css";
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

  const signedIn = gate.level !== "anonymous";
  return (
    <main id="main" className="studio" data-signed-in={signedIn}>
      {signedIn ? <h1 className="sr-only">Tone Studio</h1> : <Hero />}
      {gate.level === "anonymous" && <SignInCard />}
      {/* The demo cards play for everyone: a visitor meets them before the locked studio. */}
      {gate.level === "anonymous" && <DemoCards />}
      {(gate.level === "free" || gate.level === "demo") && <DemoPanel />}
      <TutorialPanel />
      <HintBar />
      {/* Its own fieldset, which sticks to the top of the window on a desktop (transport.css). */}
      <fieldset
        className="studio-body transport-dock"
        disabled={gate.studioLocked}
        data-level={gate.level}
        aria-describedby={gate.level === "anonymous" ? SIGN_IN_NOTE_ID : undefined}
      >
        <legend className="sr-only">Transport controls</legend>
        <TransportBar />
      </fieldset>
      <fieldset className="studio-body" disabled={gate.studioLocked} data-level={gate.level}>
        <legend className="sr-only">Display controls</legend>
        <Displays />
      </fieldset>
      <StudioSections
        locked={gate.studioLocked}
        level={gate.level}
        describedBy={gate.level === "anonymous" ? SIGN_IN_NOTE_ID : undefined}
        panels={{
          channels: (
            <section className="panel" aria-labelledby="freq-title">
              <h2 id="freq-title">Frequencies</h2>
              <p id="frequency-help" className="help">Enter 0 to 20000 Hz, up to two decimals (0 switches a channel off); the slider runs from 1 Hz to 20 kHz on a log scale.</p>
              <div className="channels">
                {[1, 2, 3, 4].map((id) => (
                  <ChannelCard key={id} id={id} />
                ))}
              </div>
              {gate.label && <p className="tier-label">{gate.label}</p>}
            </section>
          ),
          effects: <EffectsGrid />,
          session: (
            <>
              <TimelinePanel />
              <RecordingsPanel />
              <section className="panel actions" aria-label="Publish">
                {adminTools && <UploadToStoreButton />}
                <VideoExportButton />
              </section>
            </>
          ),
          levels: (
            <>
              <SafeListeningPanel />
              <section className="panel actions" aria-label="Listening checks">
                <HeadphoneCheckButton />
              </section>
              <QualityPanel />
            </>
          ),
          ...(adminTools ? { quantum: <QuantumPanel /> } : {}),
        }}
      />
      {signedIn && (
        <details className="panel studio-about">
          <summary>About Tone Studio: how it works, benefits and demo sounds</summary>
          <Hero level="h2" />
          <DemoCards />
          <ExplainBlocks />
        </details>
      )}
      {!signedIn && <ExplainBlocks />}
      <DevPanel />
    </main>
  );
}
