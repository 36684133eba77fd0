// /how-it-works: what the studio does, step by step, from a channel's frequency to an exported
// file, and what each kind of account opens. Numbers come from web/pages/facts.ts.

import { Link } from "react-router-dom";
import { PLAN_LIST } from "../../api/rules/plans";
import { TEXT } from "../account/messages";
import { periodLabel } from "../payments/plans";
import { FACTS } from "./facts";
import { Section, StaticPage } from "./StaticPage";

export function HowItWorksPage() {
  return (
    <StaticPage
      title="How It Works"
      lead={
        <>
          Tone Studio makes precise tones and layered textures in your browser. You choose up to{" "}
          {FACTS.channels} frequencies, shape them with effects, listen live and export the result as a
          WAV file. There is nothing to install: the sound is computed on your own device, and only the
          settings you choose to share are stored on our server.
        </>
      }
    >
      <Section id="channels" title="1. Set up to four tones">
        <p>
          The studio has {FACTS.channels} channels. Each one is a single oscillator with its own frequency,
          waveform and on/off switch. Type a frequency between 0 and {FACTS.maxFrequency} (up to two decimals,
          so 7.83 or 432.10 are both fine) or drag the slider; 0 Hz means the channel is silent. The
          studio starts with 432, 528, 639 and 741 Hz, all as sine waves.
        </p>
        <ul>
          <li><strong>Sine</strong>: a pure tone with no overtones, the most neutral choice.</li>
          <li><strong>Triangle</strong>: soft, with weak odd overtones; a little rounder than a sine.</li>
          <li><strong>Square</strong>: hollow and reedy, made of odd overtones only.</li>
          <li><strong>Sawtooth</strong>: bright and buzzing, with every overtone present.</li>
        </ul>
        <p>
          Human hearing runs from roughly 20 Hz to 20,000 Hz, and most people lose the top of that range
          with age. A sine below 20 Hz is felt rather than heard, if at all; a square or sawtooth at such a
          frequency is heard through its overtones, as a rhythm of clicks or a buzz. The{" "}
          <Link to="/science">science page</Link> explains why that matters.
        </p>
      </Section>

      <Section id="effects" title="2. Layer effects">
        <p>
          There are {FACTS.effectCount} effects, in two rows. Each card shows its range and unit, and
          every effect can be switched on and adjusted while the sound is playing. Roughly, they fall
          into a few families:
        </p>
        <ul>
          <li>
            <strong>Movement</strong>: tremolo, amplitude modulation, isochronic pulses, the gate, 360°
            panning and stereo panning change the level or position of the sound at a rate you set in hertz.
          </li>
          <li>
            <strong>New tones</strong>: supersaw, the harmonizer, the Shepard tone, the ring modulator, the
            frequency shifter and binaural beats add pitches derived from your channels. Binaural beats
            send a slightly different frequency to each ear, so they only work on headphones.
          </li>
          <li>
            <strong>Colour</strong>: filters, the acid filter, distortion, the harmonic exciter, the
            bitcrusher and the vocoder change the timbre.
          </li>
          <li>
            <strong>Space and texture</strong>: reverb, ping-pong delay, chorus, flanger, phaser, comb
            filter, granular effects and noise add depth, width and air.
          </li>
        </ul>
      </Section>

      <Section id="duration" title="3. Choose how long it plays">
        <p>
          The duration box takes hours, minutes and seconds (HH:MM:SS) and reads like a kitchen timer:
          typing 1:30 means ninety seconds. A session lasts from {FACTS.minDuration} up to{" "}
          {FACTS.maxDuration} ({FACTS.longExport} with the {FACTS.longExportPlan}), and playback stops by itself at the end with a short fade, so you can start
          a session and close your eyes.
        </p>
      </Section>

      <Section id="play" title="4. Press Play">
        <p>
          Every sample you hear is computed by one sound engine written in AssemblyScript and compiled to
          WebAssembly. In the browser it runs on the audio thread (an AudioWorklet) at{" "}
          {FACTS.sampleRate}. Changing a frequency while playing glides to the new value over{" "}
          {FACTS.glideMs}, and every other control is smoothed the same way, so moving a slider never
          clicks. Sound starts with a short fade-in and stops with a 50 ms fade-out.
        </p>
        <p>
          Below the channels, the waveform display draws the signal as it leaves the engine; the
          spectrogram (the Show spectrogram button) shows which frequencies are present over time.
          Both read the real output, so they show exactly what the effects are doing.
        </p>
        <p>
          Sound keeps playing when the tab is in the background or the phone is locked, with the usual
          media controls on the lock screen.
        </p>
      </Section>

      <Section id="export" title="5. Export and share">
        <p>
          <strong>Export WAV</strong> renders the session to a file at {FACTS.sampleRate}, {FACTS.wavFormat}.
          The export runs the same engine with the same settings as playback, in a background worker and
          much faster than real time, so the file contains what you heard. Long files are written to disk
          in pieces as they are made rather than held in memory; files larger than 4 GiB use the RF64
          format, which audio editors read like an ordinary WAV.
        </p>
        <p>
          <strong>Share preset</strong> saves your channels, effects and duration and copies a link to the
          clipboard. Whoever opens the link gets the same settings in their studio (what they can play
          depends on their own account).
        </p>
      </Section>

      <Section id="accounts" title="6. What each account opens">
        <ul>
          <li>
            <strong>Without an account</strong> you can play the four demo presets on the studio page and
            read every page of the site; the studio itself is shown locked.
          </li>
          <li>
            <strong>A free account</strong> opens channel {FACTS.freeChannels} with a sine wave, and one{" "}
            {FACTS.demoMinutes} demo that unlocks channels 1 to {FACTS.demoChannels} and {FACTS.demoEffects}.{" "}
            {TEXT.signUpNote}
          </li>
          <li>
            <strong>A paid plan</strong> opens all {FACTS.channels} channels, every waveform and effect, WAV
            export and preset sharing:
            <ul>
              {PLAN_LIST.map((plan) => (
                <li key={plan.key}>
                  {plan.name}: {plan.priceLabel} {periodLabel(plan.period)}. {[...plan.limits, ...plan.restrictions].join("; ")}.
                </li>
              ))}
            </ul>
          </li>
        </ul>
        <p>
          <Link to="/subscribe">Compare the plans</Link>, or read the <Link to="/licensing">licensing terms</Link>{" "}
          to see what each plan lets you do with your exports.
        </p>
      </Section>

      <Section id="not-medical" title="What Tone Studio is not">
        <p>
          Tone Studio is a sound tool for experimental and entertainment use. It is not a medical device,
          it does not diagnose, treat or prevent any condition, and no frequency in it is a therapy. If you
          have a health concern, talk to a qualified professional. Keep the volume moderate, especially
          on headphones.
        </p>
      </Section>
    </StaticPage>
  );
}
