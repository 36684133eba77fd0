// Tremolo: amplitude modulation by a sine LFO at `value` Hz (0.1-20), depth 0.5 (gain swings
// between 0.5 and 1.0, so the tone never vanishes). The LFO phase is f64 and the rate is
// smoothed per block, so moving the slider never clicks; the LFO is read from the sine table.

import { AmplitudeMod } from "./amplitudeMod";

export class Tremolo extends AmplitudeMod {
  depth: f32 = 0.5;
}
