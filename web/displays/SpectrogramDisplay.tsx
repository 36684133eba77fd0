// Live spectrogram: scrolls one column per redraw from the studio's spectrum analyser (spec 9:
// size 1024, 512 in the performance profile; smoothing 0.7; -90 to -10 dB; 200 or 150 columns;
// redraw every 20 or 33 ms, or 41.7 ms (24 fps) in the performance profile, see
// performance-profile.ts), on a log-frequency axis labelled 50 Hz to 20k. Drawn from the shared
// animation loop, never through React state; while stopped it keeps its picture and does no
// frame work at all.

import { useCallback, useEffect, useRef } from "react";
import { useStore } from "zustand";
import { countFrame, displayFrames } from "./display-frames";
import { useAudio, useStudio } from "../state/studio-context";
import { frameGapMs } from "../state/performance-profile";
import {
  AXIS_TICKS_HZ, colourRamp, formatHz, levelAt, logFrequencyFraction, rampIndex, rowBins,
} from "./spectrogram-scale";
import { useAnimationLoop } from "./use-animation-loop";

const COLUMN_PX = 4;
const HEIGHT = 200;
const RAMP = colourRamp();
/** The context always runs at 48 kHz (AudioClient), so the axis is known before it exists. */
const NYQUIST = 24000;

interface Scratch {
  bins: Float32Array<ArrayBuffer>;
  rows: Float32Array;
  column: ImageData | null;
}

export function SpectrogramDisplay() {
  const audio = useAudio();
  const playing = useStore(useStudio(), (s) => s.isPlaying);
  const canvas = useRef<HTMLCanvasElement>(null);
  const scratch = useRef<Scratch>({ bins: new Float32Array(0), rows: new Float32Array(0), column: null });
  const { columns, redrawGapMs, minDb, maxDb } = audio.profile.spectrogram;

  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return;
    ctx.fillStyle = "#0b1020";
    ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  }, []);

  const draw = useCallback((now: number) => {
    const c = canvas.current;
    const ctx = c?.getContext("2d");
    const a = audio.spectrumAnalyser;
    if (!c || !ctx || !a) return;
    const s = scratch.current;
    if (s.bins.length !== a.frequencyBinCount) {
      s.bins = new Float32Array(a.frequencyBinCount);
      s.rows = rowBins(c.height, a.frequencyBinCount, a.context.sampleRate / 2);
    }
    s.column ??= ctx.createImageData(COLUMN_PX, c.height);
    a.getFloatFrequencyData(s.bins);
    // Scroll left by one column, then paint the newest column at the right edge.
    ctx.drawImage(c, -COLUMN_PX, 0);
    const px = s.column.data;
    for (let y = 0; y < c.height; y++) {
      const rgb = RAMP[rampIndex(levelAt(s.bins, s.rows[y]), minDb, maxDb)];
      for (let x = 0; x < COLUMN_PX; x++) {
        const o = (y * COLUMN_PX + x) * 4;
        px[o] = rgb >> 16;
        px[o + 1] = (rgb >> 8) & 255;
        px[o + 2] = rgb & 255;
        px[o + 3] = 255;
      }
    }
    ctx.putImageData(s.column, c.width - COLUMN_PX, 0);
    countFrame(displayFrames.spectrogram, now);
  }, [audio, minDb, maxDb]);

  useAnimationLoop(canvas, draw, { gapMs: frameGapMs(audio.profile, redrawGapMs), running: playing });

  return (
    <div className="spectrogram-frame">
      <div className="spectrogram-axis" aria-hidden="true">
        {AXIS_TICKS_HZ.map((hz) => (
          <span key={hz} style={{ bottom: `${(logFrequencyFraction(hz, NYQUIST) * 100).toFixed(2)}%` }}>{formatHz(hz)}</span>
        ))}
      </div>
      <canvas
        ref={canvas}
        className="spectrogram"
        width={columns * COLUMN_PX}
        height={HEIGHT}
        role="img"
        aria-label="Live spectrogram display: time left to right, frequency from 20 Hz at the bottom to 24 kHz at the top on a log scale"
      />
    </div>
  );
}
