// Rendering a session of voices (and its soundtrack) as the engine plays it, for the tests of the
// soundtrack, its effects, user envelopes and the noise families.

import type { SoundtrackAudio } from "../../../../dsp/host/model/soundtrack";
import type { AudioState } from "../../../../dsp/host/model/state";
import type { Voice } from "../../../../dsp/host/model/voices";
import { createNodeEngine } from "../../../../dsp/host/node";
import { defaultChannels, defaultEffects } from "../../../../dsp/host/schema/state";
import { FS, renderFrames, type Stereo } from "../../dsp/assembly/helpers";

/** A session of these voices at 0:00, the four channels off. */
export function voicesSession(voices: Voice[]): AudioState {
  return { channels: defaultChannels().map((c) => ({ ...c, enabled: false })), effects: defaultEffects(), duration: 60, voices };
}

/** `seconds` of the voices from `from` seconds, compressor off. */
export function playVoices(voices: Voice[], seconds: number, opts: { from?: number; soundtrack?: SoundtrackAudio | null } = {}): Stereo {
  const e = createNodeEngine(FS);
  e.setSoundtrack(opts.soundtrack ?? null);
  e.apply(voicesSession(voices));
  e.setCompressor(false);
  e.start({ delay: 0 });
  const skip = Math.round((opts.from ?? 0) * FS);
  for (let done = 0; done < skip; done += 16384) e.render(Math.min(16384, skip - done));
  return renderFrames(e, Math.round(seconds * FS));
}

/** The lag (frames, within +-maxLag) at which the right ear best matches the left over 2000 frames
 *  from `at`: positive when the right ear is behind. */
export function interauralLag(out: Stereo, at: number, maxLag = 60): number {
  let best = 0, bestC = -Infinity;
  for (let k = -maxLag; k <= maxLag; k++) {
    let c = 0;
    for (let i = at; i < at + 2000; i++) c += out.left[i] * out.right[i + k];
    if (c > bestC) [best, bestC] = [k, c];
  }
  return best;
}
