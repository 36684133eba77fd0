// The shape every effect shares. An effect works in place on one stereo block (planar f32,
// n <= BLOCK frames). It may allocate in init() only; set() is called whenever the host changes
// its value or extras (the chain smooths the on/off crossfade, the effect smooths its own values);
// reset() clears its memory (delay lines, envelopes) so a restart renders the same bytes.

export class Effect {
  value: f32 = 0.0;
  e1: f32 = 0.0;
  e2: f32 = 0.0;
  e3: f32 = 0.0;
  fs: f64 = 48000.0;
  /** True for an effect that overwrites its input block entirely (binaural re-synthesises the
   *  channels): when it is the first effect running, fully on, the engine skips the dry mix. */
  replacesInput: bool = false;

  init(fs: f64): void {
    this.fs = fs;
  }

  set(value: f32, e1: f32, e2: f32, e3: f32): void {
    this.value = value;
    this.e1 = e1;
    this.e2 = e2;
    this.e3 = e3;
  }

  reset(): void {}

  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  process(l: usize, r: usize, n: i32): void {}
}
