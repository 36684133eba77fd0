// Export Video (spec/studio.md sections 5 and 6; the Monthly and Commercial cards' "WAV and MP4
// export"): beside Export WAV for every signed-in account, open for everyone the shared plan rule
// lets export MP4 (api/rules/plan-access.ts mayExportVideo: a plan, a temporary grant, an admin
// with the override), locked for free and demo accounts with '🔒 Pro Only' and the spec's text
// 'Video export requires a Pro subscription. Upgrade now to create videos!'. It opens the Export
// Video dialog. The server checks the same right (and counts the MP4) for the export itself.
// When this tab has a video job running (its id kept in sessionStorage, e.g. across a page
// reload), the dialog opens on it by itself.

import { useState } from "react";
import { mayExportVideo } from "../../api/rules/plan-access";
import { VIDEO_TEXT } from "../../api/rules/video";
import { useEntitlements, useStudioGate } from "../account/hooks";
import { ProLock } from "../account/ProLock";
import { VideoExportDialog } from "./VideoExportDialog";
import { rememberedJob, tabStorage } from "./video-export";
import "./video.css";

export function VideoExportButton() {
  const gate = useStudioGate();
  const allowed = mayExportVideo(useEntitlements().facts);
  // The remembered job is followed once, by the dialog opened at mount; opened later, it starts afresh.
  const [resumeId, setResumeId] = useState(() => rememberedJob(tabStorage()));
  const [open, setOpen] = useState(resumeId !== null);
  if (gate.level === "anonymous" || gate.level === "pending") return null;
  const locked = !allowed;
  return (
    <div className="video-export" data-locked={locked}>
      <button type="button" className="pro-action" aria-haspopup="dialog" disabled={locked} aria-describedby={locked ? "video-export-locked" : undefined} onClick={() => setOpen(true)}>
        Export Video
      </button>
      {locked && (
        <>
          <ProLock compact feature="Video export" />
          <small id="video-export-locked" className="video-locked">
            {VIDEO_TEXT.needsPro}
          </small>
        </>
      )}
      {open && !locked && (
        <VideoExportDialog
          resumeId={resumeId}
          onClose={() => {
            setOpen(false);
            setResumeId(null);
          }}
        />
      )}
    </div>
  );
}
