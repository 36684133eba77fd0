// Export Video (spec/studio.md section 6): an admin tool beside Export WAV, shown to admins with
// the override on (hasAdminStudioTools; StudioPage decides), that opens the Export Video dialog.
// The server checks the same right for the export itself.

import { useState } from "react";
import { VideoExportDialog } from "./VideoExportDialog";
import "./video.css";

export function VideoExportButton() {
  const [open, setOpen] = useState(false);
  return (
    <div className="video-export">
      <button type="button" className="pro-action" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Export Video
      </button>
      {open && <VideoExportDialog onClose={() => setOpen(false)} />}
    </div>
  );
}
