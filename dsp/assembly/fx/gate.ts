// Rhythmic gate: a hard on/off chop at `value` Hz (0.5-16), on for half of each period. Unlike
// the isochronic pulses its edges are short (3 ms raised-cosine ramps, at most 10% of the period):
// percussive, but without the click of a true step.

import { IsoPulses } from "./isoPulses";

export class Gate extends IsoPulses {
  edgeSeconds: f64 = 0.003;
  maxEdge: f64 = 0.1;
}
