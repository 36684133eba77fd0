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
