// iPhone and iPad: Web Audio goes to the "ambient" audio channel, which the ring/silent switch
// mutes, unless the page sets navigator.audioSession.type = "playback" (Safari 16.4+, done in
// background-playback.ts). Where that is missing, the studio's output is routed through a
// MediaStreamAudioDestinationNode into an <audio> element instead of context.destination: a media
// element plays on the media channel, so the sound ignores the silent switch and keeps playing on
// the lock screen like any music player. Everywhere else the output goes straight to the
// destination (the route adds a little latency and nothing else).

export interface NavigatorLike {
  userAgent: string;
  maxTouchPoints?: number;
  audioSession?: unknown;
}

/** True on iOS / iPadOS (iPadOS reports a Mac with touch) without navigator.audioSession. */
export function needsMediaElementRoute(nav: NavigatorLike | undefined = typeof navigator === "undefined" ? undefined : navigator): boolean {
  if (!nav) return false;
  const ios = /iPhone|iPad|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && (nav.maxTouchPoints ?? 0) > 1);
  return ios && !nav.audioSession;
}

/** Connects `output` to the speakers: directly, or through a media element where needed. */
export class OutputRoute {
  readonly element: HTMLAudioElement | null = null;

  constructor(context: AudioContext, output: AudioNode, useElement = needsMediaElementRoute()) {
    if (!useElement || typeof MediaStreamAudioDestinationNode === "undefined" || typeof Audio === "undefined") {
      output.connect(context.destination);
      return;
    }
    const stream = new MediaStreamAudioDestinationNode(context, { channelCount: 2 });
    output.connect(stream);
    const element = new Audio();
    element.srcObject = stream.stream;
    element.setAttribute("playsinline", "");
    element.dataset.toneOutput = "media-element";
    this.element = element;
  }

  /** Starts the element; call inside the user gesture that starts sound (and again later: it is
   *  a no-op while playing). */
  play(): void {
    const el = this.element;
    if (!el || !el.paused) return;
    el.play().catch((err: unknown) => console.warn("The audio output element could not start:", err));
  }
}
