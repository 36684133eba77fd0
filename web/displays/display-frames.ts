// Frames drawn by each live display, counted for the UI bench (bench/ui.ts) and end-to-end
// tests, read through window.__toneStudio.displayFrames. Each drawn frame costs two stores into
// a plain object (no allocation, no timer, nothing else runs); nothing in the app reads them.

export interface FrameCount {
  /** Frames drawn since the page loaded. */
  frames: number;
  /** The requestAnimationFrame timestamp (ms) of the last frame drawn; 0 before the first. */
  lastAt: number;
}

export const displayFrames: { waveform: FrameCount; spectrogram: FrameCount } = {
  waveform: { frames: 0, lastAt: 0 },
  spectrogram: { frames: 0, lastAt: 0 },
};

/** Records one drawn frame at `now` (the rAF timestamp the frame was drawn for). */
export function countFrame(count: FrameCount, now: number): void {
  count.frames++;
  count.lastAt = now;
}
