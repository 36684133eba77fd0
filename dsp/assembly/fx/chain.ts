// The effect chain: every effect of fx/registry.ts in its slot (slot = the catalogue's wasm
// index), run in slot order on the stereo block. Switching an effect on or off crossfades wet and
// dry over a few ms (no clicks); a slot that is off and faded out is skipped, so "off" is
// bit-identical to the dry signal.

import { BLOCK } from "../lib/constants";
import { Effect } from "./effect";
import { createEffects } from "./registry";

const effects: StaticArray<Effect> = createEffects();
const FX_SLOTS: i32 = effects.length;
const enabled = new StaticArray<bool>(FX_SLOTS);
const mix = new StaticArray<f32>(FX_SLOTS);
const dryL = new StaticArray<f32>(BLOCK);
const dryR = new StaticArray<f32>(BLOCK);

export function initEffects(fs: f64): void {
  for (let i = 0; i < FX_SLOTS; i++) effects[i].init(fs);
}

export function setEffect(i: i32, on: bool, value: f32, e1: f32, e2: f32, e3: f32): void {
  if (i < 0 || i >= FX_SLOTS) return;
  const fx = effects[i];
  fx.set(value, e1, e2, e3);
  if (on && !enabled[i] && mix[i] == 0.0) fx.reset();
  enabled[i] = on;
}

/** Clears every effect's memory and jumps the crossfades to their targets (used on start). */
export function resetEffects(): void {
  for (let i = 0; i < FX_SLOTS; i++) {
    effects[i].reset();
    mix[i] = enabled[i] ? 1.0 : 0.0;
  }
}

/** True when the first running effect is fully on and overwrites its input, so the dry channel
 *  mix would be thrown away (the engine then only advances the channels' clocks). */
export function dryMixUnused(): bool {
  for (let i = 0; i < FX_SLOTS; i++) {
    const on = unchecked(enabled[i]);
    const m = unchecked(mix[i]);
    if (!on && m == 0.0) continue;
    return unchecked(effects[i]).replacesInput && on && m == 1.0;
  }
  return false;
}

/** True when some effect is on or still fading out (the block then needs the effect chain). */
export function anyEffectRunning(): bool {
  for (let i = 0; i < FX_SLOTS; i++) if (unchecked(enabled[i]) || unchecked(mix[i]) != 0.0) return true;
  return false;
}

export function processEffects(l: usize, r: usize, n: i32, coef: f32): void {
  for (let i = 0; i < FX_SLOTS; i++) {
    const on = enabled[i];
    const m0 = mix[i];
    if (!on && m0 == 0.0) continue;
    const fx = effects[i];
    if (on && m0 == 1.0) {
      fx.process(l, r, n);
      continue;
    }
    // Crossfading: keep the dry block, process, then blend per sample.
    const target: f32 = on ? 1.0 : 0.0;
    let m1 = m0 + (target - m0) * coef;
    if (Mathf.abs(target - m1) < 1e-4) m1 = target;
    mix[i] = m1;
    const bytes = <usize>n << 2;
    const dl = changetype<usize>(dryL);
    const dr = changetype<usize>(dryR);
    memory.copy(dl, l, bytes);
    memory.copy(dr, r, bytes);
    fx.process(l, r, n);
    const step = (m1 - m0) / <f32>n;
    let m = m0;
    for (let k = 0; k < n; k++) {
      m += step;
      const o = <usize>k << 2;
      const a = load<f32>(dl + o);
      const b = load<f32>(dr + o);
      store<f32>(l + o, a + (load<f32>(l + o) - a) * m);
      store<f32>(r + o, b + (load<f32>(r + o) - b) * m);
    }
    if (m1 == 0.0) fx.reset();
  }
}
