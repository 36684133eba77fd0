// Upload to Store beside Export WAV (spec/studio.md section 2; StudioPage mounts it for admins
// with the override only): opens the dialog; focus returns to the button when it closes.

import { useRef, useState } from "react";
import { UploadToStoreDialog } from "./UploadToStoreDialog";
import "./marketplace.css";

export function UploadToStoreButton() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className="upload-store">
      <button ref={button} type="button" className="pro-action" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Upload to Store
      </button>
      {open && (
        <UploadToStoreDialog
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </div>
  );
}
