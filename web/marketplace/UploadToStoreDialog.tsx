// The studio's Upload to Store dialog (admins with the override; spec/studio.md sections 3 and
// 5): title, description, price, category, tags and specs for the sound the studio makes now,
// which it names (frequencies and length). A modal <dialog>: focus stays inside, Escape closes it
// (while idle; during a run Cancel stops the run first).

import { useEffect, useRef, useState, type FormEvent } from "react";
import { STUDIO_UPLOAD_CATEGORIES, formatSoundDuration } from "../../api/rules/marketplace";
import { useStudio } from "../state/studio-context";
import { SoundFields } from "./SoundFields";
import { frequenciesField, uploadMinutes } from "./studio-upload";
import { EMPTY_UPLOAD_FIELDS, type UploadFields } from "./upload-form";
import { UploadProgress } from "./UploadProgress";
import { useStudioUpload } from "./use-studio-upload";

const INITIAL: UploadFields = { ...EMPTY_UPLOAD_FIELDS, category: STUDIO_UPLOAD_CATEGORIES[0] };

interface Props {
  onClose(): void;
}

export function UploadToStoreDialog({ onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const upload = useStudioUpload();
  const busy = upload.status === "submitting";
  const [values, setValues] = useState<UploadFields>(INITIAL);
  const store = useStudio();
  const [source] = useState(() => {
    const s = store.getState();
    const seconds = Math.min(s.duration, s.maxDuration);
    return { summary: frequenciesField(s.channels).summary, seconds, minutes: uploadMinutes(seconds) };
  });

  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    return () => el?.close();
  }, []);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const { minutes: _minutes, ...fields } = values;
    if (await upload.submit(fields)) onClose();
  };

  return (
    <dialog
      ref={dialog}
      className="upload-dialog"
      aria-labelledby="upload-store-heading"
      aria-describedby="upload-store-source"
      onCancel={(e) => {
        e.preventDefault(); // Escape: close through React state, never while a run is going
        if (!busy) onClose();
      }}
    >
      <h2 id="upload-store-heading">Upload to Store</h2>
      <p id="upload-store-source" className="upload-source">
        {source.summary ? (
          <>
            Renders the studio&apos;s current sound, <strong>{source.summary}</strong>, for {formatSoundDuration(source.seconds)} (listed as{" "}
            {source.minutes} min) and uploads it to the marketplace.
          </>
        ) : (
          "Renders the studio's current sound and uploads it to the marketplace."
        )}
      </p>
      <form noValidate onSubmit={(e) => void onSubmit(e)} aria-busy={busy}>
        <SoundFields
          idPrefix="upload-store"
          values={values}
          onChange={(patch) => setValues((v) => ({ ...v, ...patch }))}
          categories={STUDIO_UPLOAD_CATEGORIES}
          withMinutes={false}
          disabled={busy}
        />
        {busy && <UploadProgress label={upload.phase === "rendering" ? "Rendering WAV" : "Uploading"} percent={upload.percent} />}
        <div className="dialog-buttons">
          {busy ? (
            <button type="button" className="button" onClick={upload.cancel}>
              Cancel upload
            </button>
          ) : (
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
          )}
          <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
            {busy ? "Uploading…" : "Upload"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
