// The real error objects each engine throws for the failures an export can meet, made in the
// page on purpose (tests/e2e/engines/smoke.ts runs this in every engine and checks the message
// each one gets; tests/unit/web/export/engine-errors.json keeps what the three engines threw, for
// the unit tests of web/export/messages.ts).

export interface EngineError {
  /** What was done to get it. */
  case: string;
  /** The export stage where the app meets this failure (web/export/export-runner.ts ExportStage). */
  stage: string;
  name: string;
  message: string;
  /** Whether it is a DOMException (else an ECMAScript error). */
  dom: boolean;
}

/** In the page (sent as source: no closures). */
export async function engineErrors(): Promise<EngineError[]> {
  const out: EngineError[] = [];
  const take = async (what: string, stage: string, step: () => unknown) => {
    try {
      await step();
    } catch (err) {
      const e = err as { name?: string; message?: string };
      out.push({ case: what, stage, name: String(e?.name ?? ""), message: String(e?.message ?? ""), dom: err instanceof DOMException });
    }
  };
  await take("getRandomValues over 65536 bytes (a quota error)", "write", () => crypto.getRandomValues(new Uint8Array(65537)));
  await take("structuredClone of a function", "handoff", () => structuredClone(() => 0));
  await take("an ArrayBuffer of 2^53 - 1 bytes", "render", () => new ArrayBuffer(Number.MAX_SAFE_INTEGER));
  await take("WebAssembly.Memory grown past its maximum", "render", () => new WebAssembly.Memory({ initial: 1, maximum: 2 }).grow(2));
  let root: FileSystemDirectoryHandle | null = null;
  await take("navigator.storage.getDirectory()", "open", async () => {
    if (!navigator.storage?.getDirectory) return; // no OPFS at all: nothing to fail
    root = await navigator.storage.getDirectory();
  });
  if (root) {
    const dir = root as FileSystemDirectoryHandle;
    await take("getFileHandle of a removed file", "close", () => dir.getFileHandle("no-such-export.wav"));
    const handle = await dir.getFileHandle("clone-probe.bin", { create: true });
    // A port clones as Worker.postMessage does.
    await take("postMessage of an OPFS file handle", "handoff", () => new MessageChannel().port1.postMessage(handle));
    await dir.removeEntry("clone-probe.bin").catch(() => undefined);
  }
  return out;
}
