// Fast log2/exp2 for the compressor's per-sample gain computer.
// Split x into exponent and mantissa (IEEE 754 binary32), then a short series on the mantissa.
// Error below 1e-5 in log2 units (< 0.0001 dB): inaudible, and continuous enough not to click.

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
