// The studio page's explanatory blocks (spec/studio.md section 2): how the frequencies are
// generated, and the benefits. Shown under the studio, so the controls stay at the top for
// people who come to play; the static pages /how-it-works and /science go deeper. The first
// heading says 'tones', not 'frequencies': heading navigation (and tests) find the Frequencies
// panel by that one word.

import { Link } from "react-router-dom";
import { PLANS } from "../../api/rules/plans";
import { FACTS } from "../pages/facts";
import "./studio-intro.css";

const BENEFITS = [
  {
    title: "Exact to a hundredth of a hertz",
    text: `Type 7.83 or 432.10 Hz and that is the frequency you get, anywhere from 0 to ${FACTS.maxFrequency}, with no drift over hours.`,
  },
  {
    title: "Clean at every pitch",
    text: "No aliasing whistles on square and sawtooth waves, and no clicks when you start, stop or move a slider.",
  },
  {
    title: `Studio-quality ${FACTS.sampleRateKHz} output`,
    text: `What you hear and what you export come from the same engine: WAV files at ${FACTS.sampleRate}, ${FACTS.wavFormat}.`,
  },
  {
    title: `${FACTS.effectCount} effects to layer`,
    text: "From isochronic pulses, binaural beats and 360° panning to reverb, granular textures and the Shepard tone.",
  },
  {
    title: "Commercial use of your exports",
    text: `With the ${PLANS.commercial.name}, sell and license what you make; every plan's rights are spelled out.`,
  },
  {
    title: "Nothing to install",
    text: "It runs in your browser, keeps playing in a background tab, and shares any setup as a link.",
  },
] as const;

export function ExplainBlocks() {
  return (
    <>
      <section className="panel explain" aria-labelledby="explain-title">
        <h2 id="explain-title">How the tones are generated</h2>
        <p>
          Every sample is computed on your device by one sound engine written in AssemblyScript and compiled to
          WebAssembly. It runs on the browser's audio thread at {FACTS.sampleRate}; the same engine renders your
          exports, faster than real time, so the file is what you heard.
        </p>
        <ul className="explain-points">
          <li>
            <strong>Band-limited waveforms.</strong> Square, sawtooth and triangle waves are built from their own
            harmonics and keep every one of them below {FACTS.partialCeiling}, so nothing folds back as an
            out-of-tune alias.
          </li>
          <li>
            <strong>64-bit phase.</strong> Each oscillator counts its position in the cycle with a 64-bit integer,
            so the frequency you type is the frequency you hear, even twelve hours later.
          </li>
          <li>
            <strong>Smooth changes.</strong> Frequencies glide to a new value over {FACTS.glideMs}, every other
            control is smoothed, and sound fades in and out, so nothing clicks.
          </li>
        </ul>
        <p className="explain-links">
          <Link to="/how-it-works">How it works, step by step</Link>
          <Link to="/science">Why precision matters</Link>
        </p>
      </section>
      <section className="panel benefits" aria-labelledby="benefits-title">
        <h2 id="benefits-title">Benefits</h2>
        <ul className="benefit-list">
          {BENEFITS.map((b) => (
            <li key={b.title}>
              <h3>{b.title}</h3>
              <p>{b.text}</p>
            </li>
          ))}
        </ul>
        <p className="help explain-note">
          For experimental and entertainment use: the studio makes sound, not medical claims.
        </p>
      </section>
    </>
  );
}
