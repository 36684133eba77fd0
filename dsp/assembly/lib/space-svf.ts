// Stereo low-pass state-variable filter for swept filters (acidFilter, filterEnvelope).
// Topology-preserving trapezoidal SVF after Andrew Simper, "Linear Trapezoidal Integrated SVF"
// (Cytomic technical paper, 2013): stable for any cutoff and resonance, and it stays well-behaved
// when the cutoff moves every sample, which a direct-form biquad recomputed per block does not
// (an LFO at 20 Hz would step the cutoff by more than half an octave per 128-frame block).
// The prewarped cutoff g = tan(pi fc / fs) ramps linearly across the block; the coefficients are
// derived from it per frame, once for both channels.

export class StereoSvf {
  // Integrator states (ic1eq, ic2eq in the paper) for the left and right channel.
  l1: f32 = 0.0;
  l2: f32 = 0.0;
  r1: f32 = 0.0;
  r2: f32 = 0.0;
  /** Prewarped cutoff at the end of the last block. */
  g: f32 = 0.01;

  reset(g: f32): void {
    this.l1 = 0.0;
    this.l2 = 0.0;
    this.r1 = 0.0;
    this.r2 = 0.0;
    this.g = g;
  }

  /** Low-passes the stereo block in place while g moves linearly from this.g to g1;
   *  k = 1 / Q (damping), out = output gain. */
  lowpass(l: usize, r: usize, n: i32, g1: f32, k: f32, out: f32): void {
    let g = this.g;
    const dg = (g1 - g) / <f32>n;
    let l1 = this.l1, l2 = this.l2, r1 = this.r1, r2 = this.r2;
    for (let i = 0; i < n; i++) {
      g += dg;
      const a1: f32 = 1.0 / (1.0 + g * (g + k));
      const a2 = g * a1;
      const a3 = g * a2;
      const o = <usize>i << 2;
      const xl = load<f32>(l + o);
      const xr = load<f32>(r + o);
      const lv3 = xl - l2;
      const rv3 = xr - r2;
      const lv1 = a1 * l1 + a2 * lv3;
      const rv1 = a1 * r1 + a2 * rv3;
      const lv2 = l2 + a2 * l1 + a3 * lv3;
      const rv2 = r2 + a2 * r1 + a3 * rv3;
      l1 = 2.0 * lv1 - l1;
      r1 = 2.0 * rv1 - r1;
      l2 = 2.0 * lv2 - l2;
      r2 = 2.0 * rv2 - r2;
      store<f32>(l + o, lv2 * out);
      store<f32>(r + o, rv2 * out);
    }
    // Flush tiny states: no denormal stalls when the input falls silent.
    if (Mathf.abs(l1) < 1e-20) l1 = 0.0;
    if (Mathf.abs(l2) < 1e-20) l2 = 0.0;
    if (Mathf.abs(r1) < 1e-20) r1 = 0.0;
    if (Mathf.abs(r2) < 1e-20) r2 = 0.0;
    this.l1 = l1;
    this.l2 = l2;
    this.r1 = r1;
    this.r2 = r2;
    this.g = g1;
  }
}

/** Prewarped SVF cutoff for fc Hz at sample rate fs, clamped below Nyquist. */
export function svfG(fc: f64, fs: f64): f32 {
  const f = Math.min(Math.max(fc, 10.0), fs * 0.45);
  return <f32>Math.tan(Math.PI * f / fs);
}
