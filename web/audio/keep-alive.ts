// A silent, looping <audio> element that plays while the page makes sound. Web Audio alone does
// not make a page a media page: with a playing media element, phones keep the page's audio
// going with the screen locked or the tab in the background, and show the Media Session's
// lock-screen controls (Chrome on Android shows them for media of 5 seconds or more). The element
// has to start inside a user gesture the first time; AudioClient.onGesture calls start() there.

import { wavHeader } from "../../dsp/host/export/wav";

const SILENCE_SECONDS = 6;
const SILENCE_RATE = 8000;

/** A WAV file of digital silence (stereo PCM16, as every WAV this app writes). */
export function silentWav(seconds = SILENCE_SECONDS, sampleRate = SILENCE_RATE): Blob {
  const dataBytes = Math.round(seconds * sampleRate) * 4;
  const header = wavHeader(dataBytes, sampleRate);
  return new Blob([header as Uint8Array<ArrayBuffer>, new Uint8Array(dataBytes)], { type: "audio/wav" });
}

export class KeepAlive {
  private element: HTMLAudioElement | null = null;
  private warned = false;

  /** Starts (or keeps) the silent loop. Safe to call often; failures only warn once. */
  start(): void {
    if (typeof Audio === "undefined") return;
    if (!this.element) {
      this.element = new Audio(URL.createObjectURL(silentWav()));
      this.element.loop = true;
      this.element.preload = "auto";
    }
    if (!this.element.paused) return;
    this.element.play().catch((err: unknown) => {
      if (this.warned) return;
      this.warned = true;
      console.warn("Background playback keep-alive could not start:", err);
    });
  }

  stop(): void {
    this.element?.pause();
  }

  get playing(): boolean {
    return this.element !== null && !this.element.paused;
  }
}
