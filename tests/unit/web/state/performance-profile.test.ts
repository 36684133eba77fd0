// Display profile detection (spec/studio.md sections 4 and 9) from made-up devices.

import { describe, expect, it } from "vitest";
import { detectProfileName, displayProfile, frameGapMs, isMobileDevice } from "../../../../web/state/performance-profile";

const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

describe("performance profile", () => {
  it("phones and tablets get the performance profile whatever their cores", () => {
    expect(detectProfileName({ userAgent: ANDROID, hardwareConcurrency: 8 })).toBe("performance");
    expect(detectProfileName({ userAgent: IPHONE, hardwareConcurrency: 6 })).toBe("performance");
    expect(detectProfileName({ userAgent: DESKTOP, hardwareConcurrency: 8, mobile: true })).toBe("performance");
    // iPadOS says it is a Mac, but has touch points.
    expect(isMobileDevice({ userAgent: MAC, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: MAC, maxTouchPoints: 0 })).toBe(false);
  });

  it("desktops: 4 or fewer cores performance, 5-7 standard, 8 or more high", () => {
    expect(detectProfileName({ userAgent: DESKTOP, hardwareConcurrency: 2 })).toBe("performance");
    expect(detectProfileName({ userAgent: DESKTOP, hardwareConcurrency: 4 })).toBe("performance");
    expect(detectProfileName({ userAgent: DESKTOP, hardwareConcurrency: 6 })).toBe("standard");
    expect(detectProfileName({ userAgent: DESKTOP, hardwareConcurrency: 8 })).toBe("high");
    expect(detectProfileName({ userAgent: MAC, hardwareConcurrency: 12 })).toBe("high");
    // A browser that hides its core count is treated as a desktop.
    expect(detectProfileName({ userAgent: DESKTOP })).toBe("high");
    expect(detectProfileName({})).toBe("high");
  });

  it("carries the spec's display constants", () => {
    const perf = displayProfile({ userAgent: ANDROID });
    expect(perf.maxFps).toBe(24);
    // Both displays at the 24 fps cap (the low-core phone target), not the spec's 50 ms (20 fps).
    expect(perf.waveform).toEqual({ fftSize: 1024, smoothing: 0.8, frameGapMs: 1000 / 24 });
    expect(perf.spectrogram).toEqual({ fftSize: 512, smoothing: 0.7, minDb: -90, maxDb: -10, columns: 150, redrawGapMs: 1000 / 24 });
    expect(frameGapMs(perf, perf.waveform.frameGapMs)).toBeCloseTo(1000 / 24);
    expect(frameGapMs(perf, perf.spectrogram.redrawGapMs)).toBeCloseTo(1000 / 24);
    const standard = displayProfile({ userAgent: DESKTOP, hardwareConcurrency: 6 });
    expect(standard.waveform).toEqual({ fftSize: 2048, smoothing: 0.8, frameGapMs: 30 });
    expect(standard.spectrogram).toEqual({ fftSize: 1024, smoothing: 0.7, minDb: -90, maxDb: -10, columns: 200, redrawGapMs: 33 });
    expect(displayProfile({ userAgent: DESKTOP, hardwareConcurrency: 16 }).spectrogram.redrawGapMs).toBe(20);
  });

  it("a display never draws faster than its profile's cap", () => {
    expect(frameGapMs({ maxFps: 24 }, 20)).toBeCloseTo(1000 / 24);
    expect(frameGapMs({ maxFps: 24 }, 50)).toBe(50);
    expect(frameGapMs({ maxFps: 60 }, 20)).toBe(20);
  });
});
