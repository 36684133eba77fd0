// /science: 'Why Most Sound Healing Apps Are Basically Useless', an honest piece on precision
// (band-limited synthesis, exact frequencies, aliasing, clicks, the 48 kHz output), on tones
// below hearing, and on what the research does and does not say. No medical claims.

import { Link } from "react-router-dom";
import { FACTS } from "./facts";
import { Section, StaticPage } from "./StaticPage";

/** Where the partials of a 5 kHz sawtooth above the Nyquist frequency land at 48 kHz. */
const ALIAS_ROWS = [
  { partial: "25,000 Hz (5th)", heard: "23,000 Hz" },
  { partial: "30,000 Hz (6th)", heard: "18,000 Hz" },
  { partial: "35,000 Hz (7th)", heard: "13,000 Hz" },
  { partial: "40,000 Hz (8th)", heard: "8,000 Hz" },
  { partial: "45,000 Hz (9th)", heard: "3,000 Hz" },
] as const;

export function SciencePage() {
  return (
    <StaticPage
      title="Why Most Sound Healing Apps Are Basically Useless"
      meta="On precision, on tones you cannot hear, and on what the evidence does and does not say"
      lead={
        <>
          Plenty of apps promise an exact frequency: 528 Hz, 7.83 Hz, 40 Hz. Whatever you believe about
          those numbers, a number on a screen is only worth something if the speaker actually produces it,
          cleanly and without anything else mixed in. Many apps do not. This page explains what it takes
          to generate a tone precisely, how to check any app yourself, and what research really supports.
          We make no medical claims, and we think nobody should without evidence.
        </>
      }
    >
      <Section id="aliasing" title="Aliasing: the tones you did not ask for">
        <p>
          Digital audio at {FACTS.sampleRate} can only hold frequencies below half that rate, {FACTS.nyquist}{" "}
          (the Nyquist frequency). A sine wave is a single frequency, but a square, sawtooth or triangle
          wave is a stack of overtones that goes on forever. A 5,000 Hz sawtooth has components at 10,000,
          15,000, 20,000, 25,000, 30,000 Hz and beyond.
        </p>
        <p>
          The simplest way to make a sawtooth in software is to draw the ramp sample by sample. That
          creates all of those overtones, and the ones above {FACTS.nyquist} do not disappear: they fold
          back into the audible range as <em>aliases</em>.
        </p>
        <table className="fact-table">
          <caption>A naively drawn 5,000 Hz sawtooth at {FACTS.sampleRate}</caption>
          <thead>
            <tr><th scope="col">Overtone produced</th><th scope="col">Where you hear it</th></tr>
          </thead>
          <tbody>
            {ALIAS_ROWS.map((row) => (
              <tr key={row.partial}><td>{row.partial}</td><td>{row.heard}</td></tr>
            ))}
          </tbody>
        </table>
        <p>
          None of those is a multiple of 5,000 Hz. They are out-of-tune whistles that were never part of
          the waveform, and when you sweep the pitch up they sweep down. An app that advertises a
          "pure 5 kHz square wave" and draws it naively is playing a chord of unrelated tones.
        </p>
        <p>
          Tone Studio uses <strong>band-limited wavetables</strong>: each waveform is built in advance as a
          sum of its own harmonics, in versions with fewer harmonics for higher pitches, and the
          oscillator always uses one whose highest harmonic stays below {FACTS.partialCeiling}. Nothing is
          left to fold back. A common shortcut, a two-point "polyBLEP" correction, still leaves aliases
          only about 28 dB below a 5 kHz tone, which is plainly audible; in our measurements the studio's
          stay more than 80 dB down.
        </p>
      </Section>

      <Section id="exact" title="Exact frequencies, for hours">
        <p>
          An oscillator keeps a <em>phase</em>, its position within one cycle, and advances it every
          sample by the frequency divided by the sample rate. If that phase is stored as a single-precision
          floating-point number, which holds about seven significant digits, every step is rounded and the
          rounding piles up: the pitch you get drifts from the one you typed by an amount that depends on
          the frequency and on how long the tone has been running.
        </p>
        <p>
          Tone Studio's phase is a 64-bit integer. The step for any frequency is exact to within about a
          millionth of a billionth of a hertz, the rounding never accumulates, and a 12-hour render ends
          within a billionth of a cycle of where a perfect oscillator would be. When you type 7.83 Hz or
          432.10 Hz (the box takes two decimals), that is the frequency the engine produces.
        </p>
        <p>
          A bigger and surprisingly common error is the sample rate itself. If an app computes a tone for
          44,100 samples per second but the device plays 48,000, every frequency comes out 8.8% high: 432 Hz
          becomes 470 Hz, a semitone and a half sharp. The studio asks the browser for a{" "}
          {FACTS.sampleRate} audio context and always computes with the rate the engine is actually running at.
        </p>
      </Section>

      <Section id="clicks" title="Clicks: the sound of a sudden change">
        <p>
          When a tone starts at full volume, stops mid-cycle or jumps to a new frequency between one
          sample and the next, the waveform has a corner or a step in it. A step contains energy at every
          frequency at once, and you hear it as a click or a thump. Many apps click every time you press
          play, stop or move a slider.
        </p>
        <p>
          In the studio, sound fades in when it starts ({FACTS.fadeIn} by default, set under Safe listening)
          and fades out over 50 ms when it stops;
          a frequency change glides over {FACTS.glideMs}; every other control is smoothed over a few
          milliseconds; switching an effect on or off crossfades; and at the end of a session the
          fade-out reaches silence exactly on the last sample. These changes are short enough to feel
          instant and long enough to be silent.
        </p>
      </Section>

      <Section id="output" title={`The ${FACTS.sampleRateKHz} output`}>
        <p>
          {FACTS.sampleRate} is the native rate of most computer and phone audio hardware and the
          standard rate for video, so the sound does not need converting on the way out. It also leaves
          room above the {FACTS.maxFrequency} ceiling of the channels: the highest overtone the oscillators
          make stays under {FACTS.partialCeiling}, below the {FACTS.nyquist} limit.
        </p>
        <p>
          Exports are WAV files at {FACTS.sampleRate}, {FACTS.wavFormat}, uncompressed. Reducing the
          engine's high-resolution signal to 16 bits adds a tiny amount of triangular dither noise first.
          Without it, the rounding error follows the signal and turns into a gritty distortion on quiet,
          pure tones, exactly the material this studio makes; with it, the error becomes a steady hiss
          more than 90 dB below full scale.
        </p>
        <p>
          Compressed formats such as MP3 or AAC work differently: they discard what a model of hearing
          judges inaudible, and at low bit rates they may alter fine differences between the left and right
          channels, which is exactly what a binaural beat is made of. The studio's Quality Test panel lets
          you hear a high-quality render next to a compressed one.
        </p>
      </Section>

      <Section id="inaudible" title="Tones you cannot hear">
        <p>
          Human hearing runs from about 20 Hz to 20,000 Hz. Many popular "frequencies" sit far below that.
          The Schumann resonance, 7.83 Hz, is an electromagnetic resonance of the space between the Earth
          and the ionosphere; it is not a sound at all. A 7.83 Hz sine played through headphones is
          essentially inaudible, and phone speakers and earbuds cannot reproduce it in the first place.
        </p>
        <p>
          When the studio's Schumann Resonance preset plays 7.83 Hz as a sawtooth, what you hear are its
          overtones at 15.66, 23.49, 31.32 Hz and up: a low buzz that pulses 7.83 times a second. That is
          the honest way to make a slow rhythm audible. The others are to modulate an audible tone
          (amplitude modulation, tremolo, isochronic pulses) or to play two audible tones a few hertz
          apart, one in each ear (a binaural beat: 200 Hz left and 206 Hz right give a 6 Hz beat, on
          headphones only). An app that simply "plays 6 Hz" through a phone speaker is playing silence.
        </p>
      </Section>

      <Section id="evidence" title="What the evidence says, and what it does not">
        <p>
          Listening to sound you find pleasant can help you relax, concentrate or fall asleep. People use
          music, rain and steady noise for exactly that, and it is a perfectly good reason to use a tone
          generator. Beyond that, the picture is much thinner than marketing suggests.
        </p>
        <ul>
          <li>
            <strong>Binaural beats and isochronic tones</strong> have been studied for attention, anxiety
            and pain perception. Results are mixed. A 2019 meta-analysis (Garcia-Argibay, Santed and
            Reales, <cite>Psychological Research</cite>) reported modest average effects with large
            differences between studies and many small samples. The idea that the brain "locks on" to the
            beat frequency is not reliably supported: several EEG studies found no such entrainment (for
            example López-Caballero and Escera, <cite>Frontiers in Human Neuroscience</cite>, 2017).
          </li>
          <li>
            <strong>40 Hz stimulation</strong> with light and sound is an active research topic in
            Alzheimer's disease, with results in mice (Iaccarino and colleagues, <cite>Nature</cite>, 2016;
            Martorell and colleagues, <cite>Cell</cite>, 2019) and small early trials in people. These use
            specific protocols under supervision; a consumer app can neither replicate them nor promise
            their outcomes.
          </li>
          <li>
            <strong>Particular numbers</strong>: there is no controlled evidence that 528 Hz repairs DNA,
            that music tuned to 432 Hz is "in harmony with the universe" (it is about a third of a semitone
            below the usual 440 Hz tuning, a matter of taste), or that the "solfeggio frequencies" heal
            organs or chakras. Those frequencies were popularised in the late twentieth century; they do
            not come from medieval music, which had no way of measuring hertz.
          </li>
        </ul>
        <div className="callout">
          <p>
            <strong>Our position.</strong> Tone Studio is for experimental and entertainment use. We make no
            medical claims: nothing here diagnoses, treats, cures or prevents any condition, and it is no
            substitute for professional care. What we do promise is that the sound is exactly what the
            screen says.
          </p>
        </div>
      </Section>

      <Section id="check" title="How to check any app yourself">
        <ol>
          <li>
            <strong>Sweep a sawtooth</strong> slowly from 1,000 to 10,000 Hz. If you hear faint whistles
            moving in the opposite direction, those are aliases.
          </li>
          <li>
            <strong>Move the frequency slider</strong> and start and stop the sound. Clicks or zipper
            noise mean changes are not smoothed.
          </li>
          <li>
            <strong>Measure the frequency.</strong> Record or export the output and open it in a free audio
            editor's spectrum view (Audacity's Plot Spectrum, for example), or play 440 Hz next to a tuner.
            The peak should sit where the app says.
          </li>
          <li>
            <strong>Look at the file.</strong> An export should be a WAV at the rate it claims, not a
            re-encoded MP3.
          </li>
          <li>
            <strong>Read the claims.</strong> An app that promises healing from a frequency should be able to
            point to controlled studies. If it cannot, treat the promise as marketing.
          </li>
        </ol>
        <p>
          To see how the studio works end to end, read <Link to="/how-it-works">How It Works</Link>.
        </p>
      </Section>
    </StaticPage>
  );
}
