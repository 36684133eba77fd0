// Drives the studio's channels from quantum mode (spec/studio.md section 4):
// - on, simultaneous: channels 1-4 take the first four computed frequencies (switched on);
// - on, sequential: channel 1 plays the current frequency, channels 2-4 are silenced; while audio
//   plays, a one-second countdown advances the sequence; Next/Prev move by hand. A change of
//   frequency is either Instant (channel 1 muted, the next frequency after 100 ms) or Smooth
//   (`smoothSteps` steps over about 2 s, spaced evenly in pitch, i.e. geometrically in Hz, which
//   the engine's own glide joins without clicks);
// - any edit of a channel's frequency or switch that the controller did not make (typing, the
//   slider, a loaded preset, the random-sound logo) turns quantum mode off.
// Changing the base, pattern or count recomputes at once (no transition).

import type { StoreApi } from "zustand/vanilla";
import type { ChannelState } from "../../dsp/host/schema/state";
import type { StudioStore } from "../state/studio-store";
import {
  INSTANT_GAP_MS, SMOOTH_TRANSITION_MS, quantumFrequencies,
  type QuantumState, type QuantumStore,
} from "./quantum-store";

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** The frequencies of a smooth glide from `from` to `to` in `steps` steps (the last is `to`),
 *  evenly spaced in pitch. A glide from or to 0 Hz is spaced linearly. */
export function smoothSteps(from: number, to: number, steps: number): number[] {
  const geometric = from > 0 && to > 0;
  return Array.from({ length: steps }, (_, k) => {
    const t = (k + 1) / steps;
    return round2(geometric ? from * (to / from) ** t : from + (to - from) * t);
  });
}

type Layout = Pick<ChannelState, "frequency" | "enabled">[];

export class QuantumController {
  private expected: Layout | null = null;
  private applying = false;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private transitionTimers: ReturnType<typeof setTimeout>[] = [];
  private mutedVolume: number | null = null;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly studio: StoreApi<StudioStore>,
    private readonly quantum: StoreApi<QuantumStore>,
  ) {
    this.unsubscribe.push(quantum.subscribe((now, before) => this.onQuantum(now, before)));
    this.unsubscribe.push(studio.subscribe((now, before) => this.onStudio(now, before)));
    if (quantum.getState().enabled) this.apply();
    this.syncTicker();
  }

  dispose(): void {
    for (const u of this.unsubscribe) u();
    this.stopTicker();
    this.cancelTransition();
    this.quantum.getState().setEnabled(false);
  }

  private onQuantum(now: QuantumState, before: QuantumState): void {
    if (!now.enabled) {
      if (before.enabled) this.release();
      this.syncTicker();
      return;
    }
    const recomputed = !before.enabled || now.sequential !== before.sequential
      || now.base !== before.base || now.pattern !== before.pattern || now.count !== before.count;
    if (recomputed) this.apply();
    else if (now.sequential && now.index !== before.index) this.transitionTo(quantumFrequencies(now)[now.index]);
    this.syncTicker();
  }

  private onStudio(now: StudioStore, before: StudioStore): void {
    if (this.applying || !this.quantum.getState().enabled) return;
    if (now.isPlaying !== before.isPlaying) this.syncTicker();
    if (now.channels === before.channels || !this.expected) return;
    const edited = now.channels.some((c, i) => {
      const e = this.expected![i];
      return c.frequency !== e.frequency || c.enabled !== e.enabled;
    });
    if (edited) this.quantum.getState().setEnabled(false);
  }

  /** Writes channel changes as the controller's own (not a manual edit). */
  private write(patch: (c: ChannelState, i: number) => Partial<ChannelState> | null): void {
    const channels = this.studio.getState().channels.map((c, i) => {
      const p = patch(c, i);
      return p ? { ...c, ...p } : c;
    });
    this.expected = channels.map(({ frequency, enabled }) => ({ frequency, enabled }));
    this.applying = true;
    try {
      this.studio.setState({ channels });
    } finally {
      this.applying = false;
    }
  }

  /** Lays the current settings onto the channels at once. */
  private apply(): void {
    this.cancelTransition();
    const q = this.quantum.getState();
    const freqs = quantumFrequencies(q);
    if (q.sequential) {
      const f = freqs[q.index] ?? freqs[0];
      this.write((_, i) => (i === 0 ? { frequency: f, enabled: true } : { frequency: 0, enabled: false }));
    } else {
      this.write((_, i) => ({ frequency: freqs[i], enabled: true }));
    }
  }

  private transitionTo(target: number): void {
    this.cancelTransition();
    const q = this.quantum.getState();
    const from = this.studio.getState().channels[0].frequency;
    if (q.transition === "smooth") {
      const steps = smoothSteps(from, target, q.smoothSteps);
      const gap = SMOOTH_TRANSITION_MS / steps.length;
      this.write((_, i) => (i === 0 ? { frequency: steps[0], enabled: true } : null));
      steps.slice(1).forEach((f, k) => {
        this.transitionTimers.push(setTimeout(() => this.write((_, i) => (i === 0 ? { frequency: f } : null)), gap * (k + 1)));
      });
      return;
    }
    // Instant: silence, then the next frequency after 100 ms (the engine's own fade keeps both
    // edges click-free).
    this.mutedVolume = this.studio.getState().channels[0].volume;
    this.write((_, i) => (i === 0 ? { volume: 0 } : null));
    this.transitionTimers.push(setTimeout(() => {
      const volume = this.mutedVolume ?? 0.5;
      this.mutedVolume = null;
      this.write((_, i) => (i === 0 ? { frequency: target, enabled: true, volume } : null));
    }, INSTANT_GAP_MS));
  }

  /** Stops pending steps; a channel muted for an instant change gets its volume back. */
  private cancelTransition(): void {
    for (const t of this.transitionTimers) clearTimeout(t);
    this.transitionTimers = [];
    if (this.mutedVolume !== null) {
      const volume = this.mutedVolume;
      this.mutedVolume = null;
      this.write((_, i) => (i === 0 ? { volume } : null));
    }
  }

  /** Quantum mode was switched off: the channels keep their frequencies, the user edits them. */
  private release(): void {
    this.cancelTransition();
    this.expected = null;
  }

  private syncTicker(): void {
    const q = this.quantum.getState();
    const run = q.enabled && q.sequential && this.studio.getState().isPlaying;
    if (run && this.ticker === undefined) {
      this.ticker = setInterval(() => this.quantum.getState().tick(), 1000);
    } else if (!run) {
      this.stopTicker();
    }
  }

  private stopTicker(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
