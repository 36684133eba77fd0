// Live spectrogram: scrolls one column per redraw from the spectrum analyser (spec 9: size 1024,
// or 512 on slow devices; smoothing 0.7; -90 to -10 dB; 200 or 150 columns; redraw every 33 or
// 50 ms). Drawn on a canvas from requestAnimationFrame, never through React state.

import { useEffect, useRef } from "react";
import { useAudio } from "./studio-context";

const slowDevice = (navigator.hardwareConcurrency ?? 8) <= 4 || /Mobi/i.test(navigator.userAgent);
const COLUMNS = slowDevice ? 150 : 200;
const REDRAW_MS = slowDevice ? 50 : 33;
const MIN_DB = -90;
const MAX_DB = -10;

/** dB to an RGB colour on a dark-blue -> cyan -> yellow ramp. */
function colour(db: number): [number, number, number] {
  const t = Math.min(1, Math.max(0, (db - MIN_DB) / (MAX_DB - MIN_DB)));
  if (t < 0.5) {
    const u = t * 2;
    return [11 + 0 * u, 16 + 200 * u, 32 + 216 * u];
  }
  const u = (t - 0.5) * 2;
  return [11 + 242 * u, 216 + 8 * u, 248 - 177 * u];
}

export function SpectrogramDisplay() {
  const audio = useAudio();
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let raf = 0;
    let last = 0;
    let bins = new Float32Array(0);
    const draw = (t: number) => {
      raf = requestAnimationFrame(draw);
      if (t - last < REDRAW_MS) return;
      last = t;
      const c = canvas.current;
      const ctx = c?.getContext("2d");
      const a = audio.spectrumAnalyser;
      if (!c || !ctx || !a) return;
      if (slowDevice && a.fftSize !== 512) a.fftSize = 512;
      if (bins.length !== a.frequencyBinCount) bins = new Float32Array(a.frequencyBinCount);
      a.getFloatFrequencyData(bins);
      const colW = c.width / COLUMNS;
      // Scroll left by one column, then paint the newest column at the right edge.
      ctx.drawImage(c, -colW, 0);
      const column = ctx.createImageData(Math.max(1, Math.ceil(colW)), c.height);
      for (let y = 0; y < c.height; y++) {
        // Log-frequency axis from 20 Hz (bottom) to Nyquist (top).
        const nyquist = (a.context.sampleRate || 48000) / 2;
        const hz = 20 * Math.pow(nyquist / 20, 1 - y / (c.height - 1));
        const k = Math.min(bins.length - 1, Math.round((hz / nyquist) * (bins.length - 1)));
        const [r, g, b] = colour(bins[k]);
        for (let x = 0; x < column.width; x++) {
          const o = (y * column.width + x) * 4;
          column.data[o] = r;
          column.data[o + 1] = g;
          column.data[o + 2] = b;
          column.data[o + 3] = 255;
        }
      }
      ctx.putImageData(column, c.width - column.width, 0);
    };
    raf = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(raf);
  }, [audio]);

  return <canvas ref={canvas} className="spectrogram" width={800} height={200} role="img" aria-label="Live spectrogram display" />;
}
