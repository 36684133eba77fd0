// Share Preset (spec/studio.md sections 6-8): Pro, unlimited and admins with the override store
// the studio's state on the server (which enforces the same right: 401/403 otherwise), the link
// `${origin}/preset/{id}` is copied to the clipboard and stays visible in a read-only field for
// copying by hand. Free users see the button locked under '🔒 Pro Only'; anonymous visitors get
// the whole studio disabled by StudioPage.

import { useState } from "react";
import { toast } from "sonner";
import { useSession, useStudioGate } from "../account/hooks";
import { isProActionLocked } from "../account/studio-gating";
import { ProActionButton } from "../account/ProActionButton";
import { useStudio } from "../state/studio-context";
import { PRESET_MESSAGES } from "./messages";
import { presetUrl, sharePreset } from "./shared-preset";
import "./presets.css";

export function SharePresetButton() {
  const store = useStudio();
  const token = useSession((s) => s.token);
  const locked = isProActionLocked(useStudioGate());
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<string | null>(null);

  const onClick = async () => {
    if (busy || locked) return;
    setBusy(true);
    try {
      const id = await sharePreset(store.getState(), token);
      const url = presetUrl(window.location.origin, id);
      setLink(url);
      try {
        await navigator.clipboard.writeText(url);
        toast.success(PRESET_MESSAGES.shared);
      } catch (err) {
        console.warn("Clipboard write refused:", err);
        toast.warning(PRESET_MESSAGES.copyFailed);
      }
    } catch (err) {
      console.error("Sharing the preset failed:", err);
      toast.error(PRESET_MESSAGES.shareFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <ProActionButton className="share" label="Share Preset" busyLabel="Sharing…" busy={busy} locked={locked} feature="Preset sharing" onClick={onClick}>
      {link && (
        <label className="field share-link">
          <span>Share link</span>
          <input type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
    </ProActionButton>
  );
}
