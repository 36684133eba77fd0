// One PreviewController per marketplace page (web/marketplace/preview-controller.ts): failures
// show 'Failed to play audio'; leaving the page stops the preview.

import { useEffect, useState } from "react";
import { toast } from "sonner";
import { useStore } from "zustand";
import { MARKETPLACE_TEXT as T } from "../../api/rules/marketplace";
import { PreviewController } from "./preview-controller";

export function usePreviewController(): PreviewController {
  const [controller] = useState(
    () =>
      new PreviewController((id, err) => {
        console.warn(`Preview of ${id} failed`, err);
        toast.error(T.playFailed, { id: "preview-failed" });
      }),
  );
  useEffect(() => () => controller.stop(), [controller]);
  return controller;
}

export function useIsPreviewing(controller: PreviewController, id: string): boolean {
  return useStore(controller.store, (s) => s.playingId === id);
}
