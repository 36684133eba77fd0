// Live waveform display: draws the worklet output's analyser on a canvas from a
// requestAnimationFrame loop (never through React state). Frame gap 30 ms, or 50 ms on slow
// devices (spec 9: mobile or <= 4 cores draws less often).

import { useEffect, useRef } from "react";
import { useAudio } from "./studio-context";

const slowDevice = (navigator.hardwareConcurrency ?? 8) <= 4 || /Mobi/i.test(navigator.userAgent);
const FRAME_GAP_MS = slowDevice ? 50 : 30;

export function WaveformDisplay() {
  const audio = useAudio();
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let raf = 0;
    let last = 0;
    let data = new Float32Array(0);
    const draw = (t: number) => {
      raf = requestAnimationFrame(draw);
      if (t - last < FRAME_GAP_MS) return;
      last = t;
      const c = canvas.current;
      const ctx = c?.getContext("2d");
      if (!c || !ctx) return;
      const { width, height } = c;
      ctx.fillStyle = "#0b1020";
      ctx.fillRect(0, 0, width, height);
      ctx.strokeStyle = "#7dd3fc";
      ctx.lineWidth = 2;
      ctx.beginPath();
      const a = audio.waveAnalyser;
      if (a) {
        if (data.length !== a.fftSize) data = new Float32Array(a.fftSize);
        a.getFloatTimeDomainData(data);
        for (let i = 0; i < data.length; i++) {
          const x = (i / (data.length - 1)) * width;
          const y = height / 2 - data[i] * height * 1.6;
          if (i === 0) ctx.moveTo(x, y);
          else ctx.lineTo(x, y);
        }
      } else {
        ctx.moveTo(0, height / 2);
        ctx.lineTo(width, height / 2);
      }
      ctx.stroke();
    };
    raf = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(raf);
  }, [audio]);

  return <canvas ref={canvas} className="waveform" width={960} height={160} role="img" aria-label="Live waveform display" />;
}
