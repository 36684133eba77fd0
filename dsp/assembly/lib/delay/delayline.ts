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

  /** Bulk read for block-wise feedback structures: dst[j] (j < n) is the sample written `d`
   *  writes before the j-th of the next n writes, i.e. what read(d - 1) would return just before
   *  that write. Needs d >= n (everything read is already written). Two memory.copy calls. */
  readBlock(dst: usize, d: i32, n: i32): void {
    const size = this.mask + 1;
    const start = (this.pos + 1 - d) & this.mask;
    const first = min(n, size - start);
    const base = changetype<usize>(this.buf);
    memory.copy(dst, base + (<usize>start << 2), <usize>first << 2);
    if (first < n) memory.copy(dst + (<usize>first << 2), base, <usize>(n - first) << 2);
  }

  /** Bulk write: the same as write() for src[0..n), in order. */
  writeBlock(src: usize, n: i32): void {
    const size = this.mask + 1;
    const start = (this.pos + 1) & this.mask;
    const first = min(n, size - start);
    const base = changetype<usize>(this.buf);
    memory.copy(base + (<usize>start << 2), src, <usize>first << 2);
    if (first < n) memory.copy(base, src + (<usize>first << 2), <usize>(n - first) << 2);
    this.pos = (this.pos + n) & this.mask;
  }

  /** Zero-copy readBlock: the address of those n frames when they lie contiguously in the ring
   *  (most blocks), otherwise they are copied to dst and dst is returned. Needs d >= n. */
  readSpan(dst: usize, d: i32, n: i32): usize {
    const start = (this.pos + 1 - d) & this.mask;
    if (start + n <= this.mask + 1) return changetype<usize>(this.buf) + (<usize>start << 2);
    this.readBlock(dst, d, n);
    return dst;
  }

  /** Where the next n writes go when they are contiguous in the ring, else 0 (then use
   *  writeBlock). Fill it and call commit(n): together the same as n calls to write(). */
  writeSpan(n: i32): usize {
    const start = (this.pos + 1) & this.mask;
    return start + n <= this.mask + 1 ? changetype<usize>(this.buf) + (<usize>start << 2) : 0;
  }

  /** writeBlock() with the copy done in the caller by f32x4 moves: for a block of a few hundred
   *  bytes this is cheaper than memory.copy, which the engine runs as a library call. */
  @inline writeBlockInline(src: usize, n: i32): void {
    const start = (this.pos + 1) & this.mask;
    const base = changetype<usize>(this.buf);
    if (start + n <= this.mask + 1) {
      const dst = base + (<usize>start << 2);
      const n4 = n & ~3;
      for (let j = 0; j < n4; j += 4) v128.store(dst + (<usize>j << 2), v128.load(src + (<usize>j << 2)));
      for (let j = n4; j < n; j++) store<f32>(dst + (<usize>j << 2), load<f32>(src + (<usize>j << 2)));
      this.pos = (this.pos + n) & this.mask;
    } else {
      this.writeBlock(src, n);
    }
  }

  /** readSpan() inlined into the caller, for per-block paths that take many spans (a call per
   *  span costs the caller its registers). */
  @inline readSpanInline(dst: usize, d: i32, n: i32): usize {
    const start = (this.pos + 1 - d) & this.mask;
    if (start + n <= this.mask + 1) return changetype<usize>(this.buf) + (<usize>start << 2);
    this.readBlock(dst, d, n);
    return dst;
  }

  /** writeSpan() inlined into the caller. */
  @inline writeSpanInline(n: i32): usize {
    const start = (this.pos + 1) & this.mask;
    return start + n <= this.mask + 1 ? changetype<usize>(this.buf) + (<usize>start << 2) : 0;
  }

  /** Marks n frames written through writeSpan(). */
  commit(n: i32): void {
    this.pos = (this.pos + n) & this.mask;
  }
}
