// Messages between the Recordings panel (web/recordings/capture.ts) and the capture worklet
// (capture.worklet.ts).

export const CAPTURE_PROCESSOR = "studio-capture";

export type ToCapture = { type: "flush" };
export type FromCapture = { type: "chunk"; pcm: Float32Array } | { type: "done" };
