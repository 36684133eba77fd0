// Fast math without library calls: f32 log2 / exp2 for the compressor's gain computer; f64
// cos / sin of 2 pi x, 2^x and tan for values computed once per block or sub-block (LFOs, cutoffs);
// and the flush-to-zero that keeps feedback paths out of denormals.

/** log2(x) for x > 0 in f32: x is split into exponent and mantissa (IEEE 754 binary32), then a
 *  short series on the mantissa. Error below 1e-5 in log2 units (< 0.0001 dB): inaudible, and
 *  continuous enough not to click in the compressor's gain computer. */
// @ts-ignore: decorator
@inline
export function fastLog2(x: f32): f32 {
  const bits = reinterpret<i32>(x);
  const e = <f32>(((bits >> 23) & 0xff) - 127);
  const m = reinterpret<f32>((bits & 0x007fffff) | 0x3f800000); // [1, 2)
  // log2(m) = (2 / ln 2) * atanh(t), t = (m - 1) / (m + 1) in [0, 1/3]; odd series to t^9.
  const t = (m - 1.0) / (m + 1.0);
  const t2 = t * t;
  const s = t * (1.0 + t2 * (0.33333333 + t2 * (0.2 + t2 * (0.14285714 + t2 * 0.11111111))));
  return e + s * 2.8853900817779268; // 2 / ln 2
}

/** 2^p in f32, clamped to the normal range; the same error class as fastLog2. */
// @ts-ignore: decorator
@inline
export function fastExp2(p: f32): f32 {
  // Clamp to the normal range: no denormals, no Inf.
  const x = p < -126.0 ? <f32>-126.0 : (p > 126.0 ? <f32>126.0 : p);
  const fi = Mathf.floor(x);
  const y = (x - fi) * 0.6931471805599453; // f * ln 2, f in [0, 1)
  // e^y, Taylor to y^6 (error < 2e-5 relative on [0, ln 2]).
  const poly: f32 = 1.0 + y * (1.0 + y * (0.5 + y * (0.16666667 + y * (0.041666668 + y * (0.008333334 + y * 0.0013888889)))));
  return reinterpret<f32>(reinterpret<i32>(poly) + (<i32>fi << 23));
}

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
