// Live waveform display: draws the studio's waveform analyser on a canvas from the shared
// animation loop (every 30 ms; 41.7 ms, 24 fps, in the performance profile: see
// performance-profile.ts), never through React state. Stopped, it shows a flat line and does no
// frame work at all.

import { useCallback, useEffect, useRef } from "react";
import { useStore } from "zustand";
import { countFrame, displayFrames } from "./display-frames";
import { useAudio, useStudio } from "../state/studio-context";
import { frameGapMs } from "../state/performance-profile";
import { useAnimationLoop } from "./use-animation-loop";

const BACKGROUND = "#0b1020";
const TRACE = "#7dd3fc";
/** The trace is 2 px thick, drawn as three 1 px strokes of one path offset by (0, 0), (1, 0) and
 *  (0, 1): it looks the same as one 2 px stroke, but Skia draws 1 px lines on its fast path while
 *  a wider stroke is first outlined as a polygon, which for a dense trace (1024 points across
 *  960 px) cost 4 to 15 times as much in Chromium's software canvas (per frame, best of 40: 0.2 ms
 *  against 0.8 ms for four tones, 0.9 ms against 13.7 ms for noise), the largest part of a drawn
 *  frame on a throttled phone (bench/ui.ts). */
const TRACE_OFFSETS = [[0, 0], [1, 0], [0, 1]] as const;

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
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, 0, width, height);
    const trace = new Path2D();
    const step = width / (samples.length - 1);
    for (let i = 0; i < samples.length; i++) {
      const y = height / 2 - samples[i] * height * 1.6;
      if (i === 0) trace.moveTo(0, y);
      else trace.lineTo(i * step, y);
    }
    ctx.strokeStyle = TRACE;
    ctx.lineWidth = 1;
    for (const [dx, dy] of TRACE_OFFSETS) {
      ctx.setTransform(1, 0, 0, 1, dx, dy);
      ctx.stroke(trace);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    countFrame(displayFrames.waveform, now);
  }, [audio]);

  useEffect(() => {
    if (!playing) drawFlat();
  }, [playing, drawFlat]);

  useAnimationLoop(canvas, draw, { gapMs: frameGapMs(audio.profile, audio.profile.waveform.frameGapMs), running: playing });

  return <canvas ref={canvas} className="waveform" width={960} height={160} role="img" aria-label="Live waveform display" />;
}
