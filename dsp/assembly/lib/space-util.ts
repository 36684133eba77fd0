// Small helpers shared by the filter, time and space effects.

const FTZ: f32 = 1e-18;

/** Flush-to-zero for feedback paths: values below ~1e-25 become exactly 0, normal audio passes
 *  bit-exact (1e-18 is far below half an ulp of any audible sample). WebAssembly keeps IEEE
 *  denormals, which are slow on x86, so a decaying loop must never reach them. Branch-free. */
// @ts-ignore: decorator
@inline
export function ftz(x: f32): f32 {
  return (x + FTZ) - FTZ;
}

/** cos(2 pi ph) for any finite ph, without a library call: the phase is folded to a quarter
 *  cycle and a Taylor polynomial to degree 12 evaluated there (error < 1e-8). For LFOs that
 *  are evaluated once per block or sub-block. */
export function cos2pi(ph: f64): f64 {
  let x = ph - Math.floor(ph); // [0, 1)
  if (x > 0.5) x = 1.0 - x;    // cos is even about 0.5: [0, 0.5]
  let sign = 1.0;
  if (x > 0.25) { x = 0.5 - x; sign = -1.0; } // cos(pi - y) = -cos(y): [0, 0.25]
  const y = 2.0 * Math.PI * x;
  const y2 = y * y;
  const c = 1.0 - y2 * (1.0 / 2.0 - y2 * (1.0 / 24.0 - y2 * (1.0 / 720.0 - y2 * (1.0 / 40320.0 - y2 * (1.0 / 3628800.0 - y2 / 479001600.0)))));
  return sign * c;
}

/** sin(2 pi ph) = cos(2 pi (ph - 1/4)). */
// @ts-ignore: decorator
@inline
export function sin2pi(ph: f64): f64 {
  return cos2pi(ph - 0.25);
}

/** 2^x in f64 for |x| < 1000: the integer part goes into the exponent, the fraction through a
 *  degree-9 polynomial of e^(f ln 2) (relative error < 5e-9). */
export function exp2(x: f64): f64 {
  const fi = Math.floor(x);
  const y = (x - fi) * 0.6931471805599453;
  const p = 1.0 + y * (1.0 + y * (0.5 + y * (1.0 / 6.0 + y * (1.0 / 24.0 + y * (1.0 / 120.0 + y * (1.0 / 720.0 + y * (1.0 / 5040.0 + y * (1.0 / 40320.0 + y / 362880.0))))))));
  return reinterpret<f64>(reinterpret<i64>(p) + (<i64>fi << 52));
}

/** tan(x): a [7/6] Pade approximant for |x| <= 1 (relative error < 3e-7), else Math.tan. */
export function tanFast(x: f64): f64 {
  if (Math.abs(x) > 1.0) return Math.tan(x);
  const x2 = x * x;
  return x * (945.0 - x2 * (105.0 - x2)) / (945.0 - x2 * (420.0 - 15.0 * x2));
}

const OPAQUE = new StaticArray<f32>(4);

/** The same v128, passed through memory so that it reaches the engine as a loaded value, not a
 *  constant: V8 rematerialises a v128 constant inside a loop at every use (three instructions:
 *  a 64-bit immediate, a move and a shuffle), while a loaded value stays in a register. Call it
 *  once before a hot loop for the loop's vector constants. */
// @ts-ignore: decorator
@inline
export function opaque(v: v128): v128 {
  const p = changetype<usize>(OPAQUE);
  v128.store(p, v);
  return v128.load(p);
}
