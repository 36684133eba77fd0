// A short sound on the page's shared AudioContext, beside the studio's own playback: what the
// Quality Test's clip and the headphone check's test signals (and, for the context and output,
// the demo cards) have in common.
// - SideSounds, one per audio client: one side sound at a time. Starting one stops the studio's
//   playback, the demo cards and every other side sound; starting the studio stops the side
//   sound that is sounding. The demo cards are not side sounds: they layer with each other and
//   with the studio, and a side sound stops them.
// - Tickets: a counter bumped by every start and stop, so a start that finishes late stays silent.
// - startBufferVoice: an AudioBuffer source through a fade gain into the page's output (faded in
//   or not), released with a click-free fade-out (fadeOutAndStop).
// - planarBuffer: an AudioBuffer from left / right samples.
// - perClient: one player per audio client.
// No React, and no import of the audio client (it imports this): hosts are small interfaces.

/** The part of the audio client every sound beside the studio uses. */
export interface AudioHost {
  /** The context, created or resumed now: call it inside the gesture, before any await. */
  ensureContext(): AudioContext;
  /** Where every source meets on its way to the speakers (null before the first context). */
  readonly output: AudioNode | null;
}

/** What starting a side sound stops: the studio's playback and the demo cards. */
export interface SideSoundHost {
  /** Stops the studio's own playback (it fades out over 50 ms). */
  stop(): void;
  readonly demos: { stopAll(): void };
}

/** The part of the studio's store the registry follows. */
export interface StudioPlayback {
  getState(): { isPlaying: boolean };
  subscribe(listener: (state: { isPlaying: boolean }, prev: { isPlaying: boolean }) => void): () => void;
}

/** A player of side sounds, as the registry sees it. */
export interface SideSound {
  /** Whether it sounds now: only then does the studio's start stop it. */
  sounding(): boolean;
  /** Stops what it plays, and any start still on its way. */
  stop(): void;
}

/** The page's side sounds: one at a time, and never together with the studio's playback. */
export class SideSounds {
  private readonly sounds = new Set<SideSound>();
  private readonly host: SideSoundHost;
  private readonly studio: StudioPlayback;

  constructor(host: SideSoundHost, studio: StudioPlayback) {
    this.host = host;
    this.studio = studio;
    studio.subscribe((s, prev) => {
      if (!s.isPlaying || prev.isPlaying) return;
      for (const sound of this.sounds) if (sound.sounding()) sound.stop();
    });
  }

  /** Adds a player; returns its removal. */
  add(sound: SideSound): () => void {
    this.sounds.add(sound);
    return () => this.sounds.delete(sound);
  }

  /** `sound` is starting: the studio's playback, the demo cards and every other side sound stop.
   *  Returns whether the studio was playing (its fade-out is still sounding). */
  claim(sound: SideSound): boolean {
    const studio = this.studio.getState().isPlaying;
    if (studio) this.host.stop();
    this.host.demos.stopAll();
    for (const other of this.sounds) if (other !== sound) other.stop();
    return studio;
  }
}

/** Start tickets, per key (or one series with no key): each take makes the earlier ones stale, so
 *  a start that awaited something can tell whether a newer play or a stop overtook it. */
export class Tickets<K = void> {
  private readonly last = new Map<K, number>();

  take(key: K): number {
    const ticket = (this.last.get(key) ?? 0) + 1;
    this.last.set(key, ticket);
    return ticket;
  }

  valid(ticket: number, key: K): boolean {
    return this.last.get(key) === ticket;
  }
}

/** Stops a source without a click: its gain ramps to 0 from wherever it is, then the source stops
 *  once the ramp is over (and the gain node is disconnected when it has ended). */
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

/** Two channels of samples at a rate (the Quality Test's render, a headphone test signal). */
export interface PlanarSamples {
  sampleRate: number;
  left: Float32Array;
  right: Float32Array;
}

/** A stereo AudioBuffer holding `a`. */
export function planarBuffer(a: PlanarSamples): AudioBuffer {
  const buffer = new AudioBuffer({ numberOfChannels: 2, length: a.left.length, sampleRate: a.sampleRate });
  buffer.copyToChannel(a.left as Float32Array<ArrayBuffer>, 0);
  buffer.copyToChannel(a.right as Float32Array<ArrayBuffer>, 1);
  return buffer;
}

export interface VoiceOptions {
  /** Context time at which it starts (default: now). */
  at?: number;
  /** Seconds into the buffer it starts from (default 0). */
  offset?: number;
  loop?: boolean;
  /** Seconds of fade-in from silence; without it the buffer's own edges apply. */
  fadeIn?: number;
  /** Nodes between the source and the fade gain (the source feeds `input`, `output` the fade). */
  through?: { input: AudioNode; output: AudioNode };
  /** Called when the buffer ends by itself (not after release). */
  onEnded?: () => void;
}

/** A buffer playing through its fade gain into the page's output. */
export interface BufferVoice {
  readonly source: AudioBufferSourceNode;
  readonly fade: GainNode;
  /** Context time at which position 0 of the buffer plays (or would have played). */
  readonly origin: number;
  /** Fades out over `seconds` and stops; onEnded is not called. */
  release(seconds: number): void;
}

/** Starts `buffer` on `context`, through a fade gain, into `output` (or the speakers). */
export function startBufferVoice(context: BaseAudioContext, output: AudioNode | null, buffer: AudioBuffer, opts: VoiceOptions = {}): BufferVoice {
  const at = opts.at ?? context.currentTime;
  const offset = opts.offset ?? 0;
  const fade = new GainNode(context, { gain: opts.fadeIn ? 0 : 1 });
  if (opts.fadeIn) {
    fade.gain.setValueAtTime(0, at);
    fade.gain.linearRampToValueAtTime(1, at + opts.fadeIn);
  }
  const source = new AudioBufferSourceNode(context, { buffer, loop: opts.loop === true });
  if (opts.through) {
    source.connect(opts.through.input);
    opts.through.output.connect(fade);
  } else {
    source.connect(fade);
  }
  fade.connect(output ?? context.destination);
  source.onended = () => {
    fade.disconnect();
    opts.onEnded?.();
  };
  source.start(at, offset);
  return { source, fade, origin: at - offset, release: (seconds) => fadeOutAndStop(fade, source, seconds) };
}

/** `make` once per audio client (or other owner): the page's player for that client. */
export function perClient<C extends object, A extends unknown[], T>(make: (client: C, ...rest: A) => T): (client: C, ...rest: A) => T {
  const made = new WeakMap<C, T>();
  return (client, ...rest) => {
    let player = made.get(client);
    if (player === undefined) made.set(client, (player = make(client, ...rest)));
    return player;
  };
}
