// A sine window table, w(x) = sin(pi x) for x in [0, 1], for grain envelopes. Sine windows at
// 50 % overlap are power-complementary (sin^2 + cos^2 = 1), so uncorrelated grains overlap-add
// to a constant level. WINDOW_SIZE + 1 points plus a guard: linear interpolation never wraps.

export const WINDOW_BITS: i32 = 10;
export const WINDOW_SIZE: i32 = 1 << WINDOW_BITS;

const table = new StaticArray<f32>(WINDOW_SIZE + 2);
let built = false;

export function buildSineWindow(): void {
  if (built) return;
  for (let i = 0; i <= WINDOW_SIZE + 1; i++) {
    const x = Math.min(<f64>i / <f64>WINDOW_SIZE, 1.0);
    table[i] = <f32>Math.sin(Math.PI * x);
  }
  built = true;
}

/** w at table position p in [0, WINDOW_SIZE] (p = x * WINDOW_SIZE). */
// @ts-ignore: decorator
@inline
export function sineWindowAt(p: f32): f32 {
  const i = <i32>p;
  const f = p - <f32>i;
  const a = unchecked(table[i]);
  return a + (unchecked(table[i + 1]) - a) * f;
}
