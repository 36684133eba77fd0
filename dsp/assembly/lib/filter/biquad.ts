// Biquad coefficients from Robert Bristow-Johnson's "Audio EQ Cookbook", normalised to a0 = 1.
// Only the design lives here: the filtering itself runs four samples at a time in
// lib/filter/biquad4 (the callers recompute coefficients per block, at control rate).

export const LOWPASS: i32 = 0;
export const HIGHPASS: i32 = 1;
export const BANDPASS: i32 = 2; // constant 0 dB peak gain
export const ALLPASS: i32 = 3;
export const NOTCH: i32 = 4;

export class Biquad {
  b0: f32 = 1.0;
  b1: f32 = 0.0;
  b2: f32 = 0.0;
  a1: f32 = 0.0;
  a2: f32 = 0.0;

  /** Sets the coefficients for `type` at frequency f (Hz) and quality q, sample rate fs. */
  design(type: i32, f: f64, q: f64, fs: f64): void {
    const f0 = Math.min(Math.max(f, 1.0), fs * 0.49);
    const w0 = 2.0 * Math.PI * f0 / fs;
    const cw = Math.cos(w0);
    const alpha = Math.sin(w0) / (2.0 * Math.max(q, 0.01));
    let b0 = 0.0, b1 = 0.0, b2 = 0.0;
    const a0 = 1.0 + alpha;
    const a1 = -2.0 * cw;
    const a2 = 1.0 - alpha;
    if (type == LOWPASS) {
      b1 = 1.0 - cw; b0 = b1 * 0.5; b2 = b0;
    } else if (type == HIGHPASS) {
      b1 = -(1.0 + cw); b0 = -b1 * 0.5; b2 = b0;
    } else if (type == BANDPASS) {
      b0 = alpha; b1 = 0.0; b2 = -alpha;
    } else if (type == ALLPASS) {
      b0 = 1.0 - alpha; b1 = -2.0 * cw; b2 = 1.0 + alpha;
    } else {
      b0 = 1.0; b1 = -2.0 * cw; b2 = 1.0;
    }
    this.b0 = <f32>(b0 / a0);
    this.b1 = <f32>(b1 / a0);
    this.b2 = <f32>(b2 / a0);
    this.a1 = <f32>(a1 / a0);
    this.a2 = <f32>(a2 / a0);
  }
}
