// Stopping a buffer source without a click: its gain ramps to 0 from wherever it is, then the
// source stops once the ramp is over (and the gain node is disconnected when it has ended).
// Shared by the Quality Test and the headphone check, which both play short clips.

export function fadeOutAndStop(gain: GainNode, source: AudioScheduledSourceNode, seconds: number): void {
  const t = gain.context.currentTime;
  gain.gain.cancelScheduledValues(t);
  gain.gain.setValueAtTime(gain.gain.value, t);
  gain.gain.linearRampToValueAtTime(0, t + seconds);
  source.onended = () => gain.disconnect();
  try {
    source.stop(t + seconds * 2);
  } catch {
    gain.disconnect(); // never started, or already stopped
  }
}
