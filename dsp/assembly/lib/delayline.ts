// Power-of-two ring buffer delay line (f32) with integer and linearly interpolated reads.
// Allocated once in the constructor (init time); reads and writes never allocate.

export class DelayLine {
  buf: StaticArray<f32>;
  mask: i32;
  pos: i32 = 0;

  /** Holds at least `maxFrames` frames of history. */
  constructor(maxFrames: i32) {
    let size = 1;
    while (size < maxFrames + 2) size <<= 1;
    this.buf = new StaticArray<f32>(size);
    this.mask = size - 1;
  }

  reset(): void {
    memory.fill(changetype<usize>(this.buf), 0, <usize>(this.mask + 1) << 2);
    this.pos = 0;
  }

  @inline write(x: f32): void {
    this.pos = (this.pos + 1) & this.mask;
    unchecked((this.buf[this.pos] = x));
  }

  /** The sample written `d` writes ago (d = 0 is the newest). */
  @inline read(d: i32): f32 {
    return unchecked(this.buf[(this.pos - d) & this.mask]);
  }

  /** Fractional delay in frames (>= 0), linear interpolation. */
  @inline readFrac(d: f32): f32 {
    const i = <i32>d;
    const f = d - <f32>i;
    const a = unchecked(this.buf[(this.pos - i) & this.mask]);
    const b = unchecked(this.buf[(this.pos - i - 1) & this.mask]);
    return a + (b - a) * f;
  }
}
