// Marketplace previews (spec/accounts.md sections 4 and 9) through PreviewController with
// stand-in media elements: volume 0.5, one at a time (starting another stops and rewinds the
// others), clicking the playing one stops it, the end rewinds it, failures are reported once and
// a start interrupted by another preview is not a failure.

import { describe, expect, it } from "vitest";
import { PREVIEW_VOLUME } from "../../../../api/rules/marketplace";
import { PreviewController, type PreviewMedia } from "../../../../web/marketplace/preview-controller";

type Kind = "ended" | "error" | "pause";

/** A media element that plays when asked (or fails, or waits), with real pause/ended events. */
class FakeMedia implements PreviewMedia {
  volume = 1;
  currentTime = 0;
  paused = true;
  plays = 0;
  private listeners = new Map<Kind, Set<() => void>>();
  private pending: { resolve(): void; reject(e: unknown): void } | null = null;
  constructor(private mode: "ok" | "fail" | "hold" = "ok") {}
  play(): Promise<void> {
    this.plays++;
    this.paused = false;
    if (this.mode === "fail") {
      this.paused = true;
      return Promise.reject(new DOMException("no source", "NotSupportedError"));
    }
    if (this.mode === "hold") return new Promise((resolve, reject) => (this.pending = { resolve, reject }));
    return Promise.resolve();
  }
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    // A pause during a pending play() rejects it with AbortError, as browsers do.
    this.pending?.reject(new DOMException("interrupted by pause", "AbortError"));
    this.pending = null;
    this.emit("pause");
  }
  /** Playback advances by `seconds`. */
  advance(seconds: number) {
    if (!this.paused) this.currentTime += seconds;
  }
  end() {
    this.paused = true;
    this.emit("pause");
    this.emit("ended");
  }
  emit(kind: Kind) {
    for (const fn of this.listeners.get(kind) ?? []) fn();
  }
  addEventListener(kind: Kind, fn: () => void) {
    if (!this.listeners.has(kind)) this.listeners.set(kind, new Set());
    this.listeners.get(kind)!.add(fn);
  }
  removeEventListener(kind: Kind, fn: () => void) {
    this.listeners.get(kind)?.delete(fn);
  }
  listenerCount() {
    return [...this.listeners.values()].reduce((n, s) => n + s.size, 0);
  }
}

function setup() {
  const errors: string[] = [];
  const controller = new PreviewController((id) => errors.push(id));
  const a = new FakeMedia();
  const b = new FakeMedia();
  controller.register("a", a);
  controller.register("b", b);
  return { controller, errors, a, b };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("PreviewController", () => {
  it("plays at volume 0.5", () => {
    const { controller, a } = setup();
    expect(a.volume).toBe(PREVIEW_VOLUME);
    a.volume = 1; // something changed it: the next start sets it again
    controller.toggle("a");
    expect(a.volume).toBe(0.5);
    expect(a.paused).toBe(false);
    expect(controller.playingId).toBe("a");
  });

  it("starting another stops and rewinds the others", () => {
    const { controller, a, b } = setup();
    controller.toggle("a");
    a.advance(7.5);
    controller.toggle("b");
    expect(a.paused).toBe(true);
    expect(a.currentTime).toBe(0);
    expect(b.paused).toBe(false);
    expect(controller.playingId).toBe("b");
  });

  it("clicking the playing one stops and rewinds it", () => {
    const { controller, a } = setup();
    controller.toggle("a");
    a.advance(3);
    controller.toggle("a");
    expect(a.paused).toBe(true);
    expect(a.currentTime).toBe(0);
    expect(controller.playingId).toBeNull();
    controller.toggle("a"); // and it starts again from the top
    expect(a.paused).toBe(false);
    expect(a.plays).toBe(2);
  });

  it("the end of playback rewinds it and nothing is playing", () => {
    const { controller, a } = setup();
    controller.toggle("a");
    a.advance(30);
    a.end();
    expect(a.currentTime).toBe(0);
    expect(controller.playingId).toBeNull();
  });

  it("a pause from elsewhere (media keys) shows it stopped", () => {
    const { controller, a } = setup();
    controller.toggle("a");
    a.advance(2);
    a.pause();
    expect(controller.playingId).toBeNull();
    expect(a.currentTime).toBe(0);
  });

  it("a failed start is reported once and leaves nothing playing", async () => {
    const errors: string[] = [];
    const controller = new PreviewController((id) => errors.push(id));
    const broken = new FakeMedia("fail");
    controller.register("x", broken);
    controller.toggle("x");
    broken.emit("error"); // the element's error event and the rejected play() both arrive
    await settle();
    expect(errors).toEqual(["x"]);
    expect(controller.playingId).toBeNull();
  });

  it("a start interrupted by choosing another preview is not a failure", async () => {
    const errors: string[] = [];
    const controller = new PreviewController((id) => errors.push(id));
    const slow = new FakeMedia("hold");
    const other = new FakeMedia();
    controller.register("slow", slow);
    controller.register("other", other);
    controller.toggle("slow");
    controller.toggle("other");
    await settle();
    expect(errors).toEqual([]);
    expect(controller.playingId).toBe("other");
  });

  it("a stream error while playing is reported; an error on a stopped card is not", async () => {
    const { controller, errors, a, b } = setup();
    controller.toggle("a");
    b.emit("error");
    a.emit("error");
    await settle();
    expect(errors).toEqual(["a"]);
    expect(a.paused).toBe(true);
  });

  it("removing the playing card stops it and detaches its listeners", () => {
    const controller = new PreviewController(() => {});
    const a = new FakeMedia();
    const remove = controller.register("a", a);
    controller.toggle("a");
    remove();
    expect(a.paused).toBe(true);
    expect(controller.playingId).toBeNull();
    expect(a.listenerCount()).toBe(0);
    controller.toggle("a"); // unknown now: ignored
    expect(controller.playingId).toBeNull();
  });

  it("publishes which sound plays through its store", () => {
    const { controller } = setup();
    const seen: (string | null)[] = [];
    controller.store.subscribe((s) => seen.push(s.playingId));
    controller.toggle("a");
    controller.toggle("b");
    controller.toggle("b");
    expect(seen).toEqual(["a", "b", null]);
  });
});
