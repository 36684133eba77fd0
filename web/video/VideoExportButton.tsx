// Export Video (spec/studio.md section 6): an admin tool beside Export WAV, shown to admins with
// the override on (hasAdminStudioTools; StudioPage decides), that opens the Export Video dialog.
// The server checks the same right for the export itself. When this tab has a video job running
// (its id kept in sessionStorage, e.g. across a page reload), the dialog opens on it by itself.

import { useState } from "react";
import { VideoExportDialog } from "./VideoExportDialog";
import { rememberedJob, tabStorage } from "./video-export";
import "./video.css";

export function VideoExportButton() {
  // The remembered job is followed once, by the dialog opened at mount; opened later, it starts afresh.
  const [resumeId, setResumeId] = useState(() => rememberedJob(tabStorage()));
  const [open, setOpen] = useState(resumeId !== null);
  return (
    <div className="video-export">
      <button type="button" className="pro-action" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Export Video
      </button>
      {open && (
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
