// dsp/assembly/fx/registry.ts (the engine's ordered list of effects) against dsp/host/model/catalogue.ts:
// the same ids in `wasm` order, slots 0..29 without gaps, and every class in its own fx/ file.
// The registry is read as text: it is AssemblyScript, and its order is what the chain runs.

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../../dsp/host/model/catalogue";

const FX_DIR = fileURLToPath(new URL("../../../../dsp/assembly/fx/", import.meta.url));
const source = readFileSync(`${FX_DIR}registry.ts`, "utf8");

/** `new Class(), // id ...` lines, in file order. */
const entries = [...source.matchAll(/^\s*new (\w+)\(\),\s*\/\/\s*(\w+)/gm)].map((m) => ({ cls: m[1], id: m[2] }));
/** Class name -> module path, from `import { Class } from "./file";` lines. */
const modules = new Map([...source.matchAll(/^import \{ (\w+) \} from "\.\/([\w/]+)";$/gm)].map((m) => [m[1], m[2]]));
const bySlot = [...EFFECTS].sort((a, b) => a.wasm - b.wasm);

describe("effect registry", () => {
  it("lists exactly 30 effects, one line each", () => {
    expect(entries).toHaveLength(30);
    expect(new Set(entries.map((e) => e.id)).size).toBe(30);
    expect(new Set(entries.map((e) => e.cls)).size).toBe(30);
  });

  it("catalogue slots are 0..29 with no gaps or repeats", () => {
    expect(EFFECTS).toHaveLength(30);
    expect(bySlot.map((d) => d.wasm)).toEqual([...Array(30).keys()]);
  });

  it("is in the catalogue's wasm order", () => {
    expect(entries.map((e) => e.id)).toEqual(bySlot.map((d) => d.id));
  });

  it("builds every effect from its own file in fx/", () => {
    for (const { cls, id } of entries) {
      const file = modules.get(cls);
      expect(file, `import of ${cls} (${id})`).toBeDefined();
      const path = `${FX_DIR}${file}.ts`;
      expect(existsSync(path), path).toBe(true);
      expect(readFileSync(path, "utf8"), `${path} exports class ${cls}`).toMatch(new RegExp(`^export class ${cls}\\b`, "m"));
    }
  });
});
