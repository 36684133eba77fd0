// The studio's Upload to Store run (spec/studio.md sections 3, 4, 5 and 8): idle, then submitting
// (rendering the current state to WAV in the export worker, the same ExportRun as Export WAV,
// into a disk-backed OPFS file; then uploading it with the frequencies field and the duration in
// whole minutes, rounded up). Success: 'Sound uploaded to marketplace successfully!' and the
// 'marketplace-refresh' event. Cancel stops the render or aborts the upload.

import { useCallback, useRef, useState } from "react";
import { toast } from "sonner";
import { MARKETPLACE_TEXT as T } from "../../api/rules/marketplace";
import { useSession } from "../account/hooks";
import { ExportRun } from "../export/export-runner";
import { askExport, ExportRefusedError } from "../export/export-count";
import { classifyExportError } from "../export/messages";
import { useStudio } from "../state/studio-context";
import { requestMarketplaceRefresh } from "./events";
import { checkStudioUpload, frequenciesField, uploadMinutes } from "./studio-upload";
import { uploadFormData, type UploadFields } from "./upload-form";
import { sendUpload, studioUploadErrorText } from "./upload-request";
import { levelsOf, levelsStore } from "../levels/levels-store";

export type StudioUploadStatus = "idle" | "submitting";
export type StudioUploadPhase = "rendering" | "uploading";

export interface StudioUpload {
  status: StudioUploadStatus;
  phase: StudioUploadPhase;
  /** 0 to 100 within the phase. */
  percent: number;
  /** Resolves true when the sound was uploaded. */
  submit(fields: Omit<UploadFields, "minutes">): Promise<boolean>;
  cancel(): void;
}

export function useStudioUpload(): StudioUpload {
  const store = useStudio();
  const token = useSession((s) => (s.status === "signed_in" ? s.token : null));
  const [status, setStatus] = useState<StudioUploadStatus>("idle");
  const [phase, setPhase] = useState<StudioUploadPhase>("rendering");
  const [percent, setPercent] = useState(0);
  const run = useRef<ExportRun | null>(null);
  const upload = useRef<AbortController | null>(null);

  const submit = useCallback(
    async (fields: Omit<UploadFields, "minutes">): Promise<boolean> => {
      if (run.current) return false;
      const s = store.getState();
      const duration = Math.min(s.duration, s.maxDuration);
      const refusal = checkStudioUpload({ fields, signedIn: token !== null, channels: s.channels, duration });
      if (refusal) {
        toast.error(refusal, { id: "studio-upload" });
        return false;
      }
      const current = new ExportRun(s, duration, (u) => setPercent(u.percent), { levels: levelsOf(levelsStore.getState()) });
      run.current = current;
      setStatus("submitting");
      setPhase("rendering");
      setPercent(0);
      try {
        // Counted against the plan before it renders (web/export/export-count.ts).
        await askExport("marketplace", duration);
        const file = await current.renderFile();
        if (!file) return false; // cancelled
        setPhase("uploading");
        setPercent(0);
        const ctrl = new AbortController();
        upload.current = ctrl;
        const form = uploadFormData({ ...fields, minutes: String(uploadMinutes(duration)) }, file, current.fileName, frequenciesField(s.channels));
        const result = await sendUpload(form, token!, { signal: ctrl.signal, onProgress: (p) => setPercent(p.fraction * 100) });
        const failure = studioUploadErrorText(result);
        if (result.kind === "aborted") return false;
        if (failure) {
          toast.error(failure, { id: "studio-upload" });
          return false;
        }
        toast.success(T.uploadedToMarketplace, { id: "studio-upload" });
        requestMarketplaceRefresh();
        return true;
      } catch (err) {
        console.error("Upload to Store failed:", err);
        toast.error(err instanceof ExportRefusedError ? err.message : classifyExportError(err, duration).text, { id: "studio-upload" });
        return false;
      } finally {
        upload.current = null;
        run.current = null;
        await current.discard().catch(() => undefined);
        setStatus("idle");
      }
    },
    [store, token],
  );

  const cancel = useCallback(() => {
    run.current?.cancel();
    upload.current?.abort();
  }, []);

  return { status, phase, percent, submit, cancel };
}
