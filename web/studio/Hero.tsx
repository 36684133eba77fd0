// The studio's hero (spec/studio.md section 2): title and blurb, and for anonymous visitors the
// call to action to create a free account, with the sign-up note (instant access, an optional
// verification e-mail) that agrees with the toast after sign-up.

import { Link } from "react-router-dom";
import { useStudioGate } from "../account/hooks";
import { TEXT } from "../account/messages";
import { FACTS } from "../pages/facts";
import "./studio-intro.css";

export const HERO_CTA_NOTE = TEXT.signUpNote;

/** `level`: the title's heading level (h2 under the signed-in studio, whose page has its own h1). */
export function Hero({ level = "h1" }: { level?: "h1" | "h2" }) {
  const anonymous = useStudioGate().level === "anonymous";
  const Title = level;
  return (
    <section className="hero" aria-labelledby="hero-title">
      <Title id="hero-title">Precise tones for focus, sleep and meditation</Title>
      <p>
        {FACTS.channels} channels from 0 to {FACTS.maxFrequency}, band-limited waveforms, {FACTS.effectCount}{" "}
        effects and click-free changes, rendered by one WebAssembly engine at {FACTS.sampleRateKHz}.
      </p>
      {anonymous && (
        <div className="hero-cta">
          <Link className="button primary" to="/auth?view=sign_up">Create Free Account</Link>
          <p>{HERO_CTA_NOTE}</p>
        </div>
      )}
    </section>
  );
}
