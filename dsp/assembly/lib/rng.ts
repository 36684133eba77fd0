// Seeded xorshift32 noise source: the same seed renders the same bytes in every host.

export class Rng {
  state: u32 = 0x9e3779b9;

  seed(s: u32): void {
    this.state = s == 0 ? 0x9e3779b9 : s;
  }

  /** Uniform in [-1, 1). */
  @inline next(): f32 {
    let x = this.state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    this.state = x;
    return <f32>(<i32>x) * (1.0 / 2147483648.0);
  }
}
