// api/http/boundary.ts lastingSignal: a client's abort still reaches work that outlives the handler
// after the Request object itself has been garbage-collected (undici forwards it through a weak
// reference that dies with the Request; without the helper this test sees no abort).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { lastingSignal } from "../../../../api/http/boundary";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("lastingSignal", () => {
  it("aborts when the client aborts, after the Request is collected", async () => {
    const client = new AbortController();
    // The Request lives only inside this call, as one does inside a route handler.
    const signal = ((): AbortSignal =>
      lastingSignal(new Request("http://studio.test/api/video-export", { method: "POST", signal: client.signal })))();
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    client.abort();
    await new Promise((r) => setTimeout(r, 10));
    expect(signal.aborted).toBe(true);
  });
});
