// The local file store: a failed write leaves nothing behind, whenever the source fails.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { localStorage } from "../../../api/services/storage";

const dir = mkdtempSync(join(tmpdir(), "tones-storage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const incoming = () => readdirSync(join(dir, ".incoming"));

describe("local storage", () => {
  it("a source that fails before the file is even open leaves no partial file", async () => {
    const store = localStorage(dir);
    for (let i = 0; i < 50; i++) {
      // Fails on the first read, which pipeline() asks for before the write stream's open completes.
      const source = new Readable({ read() { this.destroy(new Error("cut off")); } });
      await expect(store.write(source)).rejects.toThrow("cut off");
      expect(incoming()).toEqual([]);
    }
  });

  it("a source that fails part-way leaves no partial file; a good one commits under its key", async () => {
    const store = localStorage(dir);
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent++ < 3) this.push(Buffer.alloc(64 * 1024, 1));
        else this.destroy(new Error("reset"));
      },
    });
    await expect(store.write(failing)).rejects.toThrow("reset");
    expect(incoming()).toEqual([]);
    const pending = await store.write(Readable.from([Buffer.from("RIFF"), Buffer.alloc(100)]));
    expect(pending.bytes).toBe(104);
    const key = await pending.commit("wav");
    expect(await store.size(key)).toBe(104);
    expect(incoming()).toEqual([]);
  });
});
