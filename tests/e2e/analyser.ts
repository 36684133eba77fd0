// What the studio's spectrum analyser hears, read from the page (window.__toneStudio.audio).

import type { Page } from "playwright-core";

export interface SettledSpectrum {
  /** dB per bin, 0 .. fftSize/2 - 1. */
  bins: number[];
  /** Width of one bin in Hz. */
  binHz: number;
}

/** The analyser's spectrum once what was heard before has decayed: it smooths (0.7) once per
 *  read, not per unit of time, so it is read every 20 ms for 300 ms (0.7^15 = -47 dB). */
export function settledSpectrum(page: Page): Promise<SettledSpectrum> {
  return page.evaluate(async () => {
    const audio = (window as unknown as { __toneStudio: { audio: { spectrumAnalyser: AnalyserNode; context: AudioContext } } }).__toneStudio.audio;
    const a = audio.spectrumAnalyser;
    const bins = new Float32Array(a.frequencyBinCount);
    for (let i = 0; i < 15; i++) {
      await new Promise((r) => setTimeout(r, 20));
      a.getFloatFrequencyData(bins);
    }
    return { bins: Array.from(bins), binHz: audio.context.sampleRate / a.fftSize };
  });
}
