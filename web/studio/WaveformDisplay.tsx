// Live waveform display: draws the studio's waveform analyser on a canvas from the shared
// animation loop (every 30 ms; 41.7 ms, 24 fps, in the performance profile: see
// performance-profile.ts), never through React state. Stopped, it shows a flat line and does no
// frame work at all.

import { useCallback, useEffect, useRef } from "react";
import { useStore } from "zustand";
import { countFrame, displayFrames } from "./display-frames";
import { useAudio, useStudio } from "./studio-context";
import { frameGapMs } from "./performance-profile";
import { useAnimationLoop } from "./use-animation-loop";

const BACKGROUND = "#0b1020";
const TRACE = "#7dd3fc";

function clear(ctx: CanvasRenderingContext2D, width: number, height: number): void {
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, width, height);
  ctx.strokeStyle = TRACE;
  ctx.lineWidth = 2;
  ctx.beginPath();
}

export function WaveformDisplay() {
  const audio = useAudio();
  const playing = useStore(useStudio(), (s) => s.isPlaying);
  const canvas = useRef<HTMLCanvasElement>(null);
  const data = useRef(new Float32Array(0));

  const drawFlat = useCallback(() => {
    const c = canvas.current;
    const ctx = c?.getContext("2d");
    if (!c || !ctx) return;
    clear(ctx, c.width, c.height);
    ctx.moveTo(0, c.height / 2);
    ctx.lineTo(c.width, c.height / 2);
    ctx.stroke();
  }, []);

  const draw = useCallback((now: number) => {
    const c = canvas.current;
    const ctx = c?.getContext("2d");
    const a = audio.waveAnalyser;
    if (!c || !ctx || !a) return;
    if (data.current.length !== a.fftSize) data.current = new Float32Array(a.fftSize);
    const samples = data.current;
    a.getFloatTimeDomainData(samples);
    const { width, height } = c;
    clear(ctx, width, height);
    const step = width / (samples.length - 1);
    for (let i = 0; i < samples.length; i++) {
      const y = height / 2 - samples[i] * height * 1.6;
      if (i === 0) ctx.moveTo(0, y);
      else ctx.lineTo(i * step, y);
    }
    ctx.stroke();
    countFrame(displayFrames.waveform, now);
  }, [audio]);

  useEffect(() => {
    if (!playing) drawFlat();
  }, [playing, drawFlat]);

  useAnimationLoop(canvas, draw, { gapMs: frameGapMs(audio.profile, audio.profile.waveform.frameGapMs), running: playing });

  return <canvas ref={canvas} className="waveform" width={960} height={160} role="img" aria-label="Live waveform display" />;
}
