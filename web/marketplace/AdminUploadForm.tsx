// The admin upload form on /marketplace (spec/accounts.md sections 2, 3, 5 and 8; admins only):
// audio file, title, description, price, duration in minutes, category, tags, specs. Checked
// here with the spec's texts, then sent as multipart with upload progress; success fires the
// 'marketplace-refresh' event so the list shows the new sound.

import { useRef, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { MARKETPLACE_TEXT as T, SOUND_CATEGORIES } from "../../api/rules/marketplace";
import { useSession } from "../account/hooks";
import { requestMarketplaceRefresh } from "./events";
import { SoundFields } from "./SoundFields";
import { EMPTY_UPLOAD_FIELDS, uploadFormData, validateUploadFields, type UploadFields } from "./upload-form";
import { adminUploadErrorText, sendUpload, uploadedSound } from "./upload-request";
import { UploadProgress } from "./UploadProgress";

const INITIAL: UploadFields = { ...EMPTY_UPLOAD_FIELDS, category: SOUND_CATEGORIES[0] };

export function AdminUploadForm() {
  const token = useSession((s) => s.token);
  const [values, setValues] = useState<UploadFields>(INITIAL);
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const busy = percent !== null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const refusal = validateUploadFields(values, file !== null) ?? (file && file.type !== "" && !file.type.startsWith("audio/") ? T.notAudio : null);
    if (refusal) {
      toast.error(refusal, { id: "admin-upload" });
      return;
    }
    if (!token) {
      toast.error(T.loginToUpload, { id: "admin-upload" });
      return;
    }
    setPercent(0);
    const result = await sendUpload(uploadFormData(values, file!, file!.name), token, {
      onProgress: (p) => setPercent(p.fraction * 100),
    });
    setPercent(null);
    const failure = adminUploadErrorText(result);
    if (failure) {
      toast.error(failure, { id: "admin-upload" });
      return;
    }
    if (!uploadedSound(result)) return; // aborted
    toast.success(T.uploaded, { id: "admin-upload" });
    setValues(INITIAL);
    setFile(null);
    if (fileInput.current) fileInput.current.value = "";
    requestMarketplaceRefresh();
  };

  return (
    <details className="panel admin-upload">
      <summary>
        <h2>Upload a sound</h2>
        <span className="help">Administrators only</span>
      </summary>
      <form noValidate onSubmit={(e) => void onSubmit(e)} aria-busy={busy}>
        <div className="field wide">
          <label htmlFor="admin-upload-file">Audio file (required: WAV, MP3, FLAC or OGG)</label>
          <input
            ref={fileInput}
            id="admin-upload-file"
            type="file"
            accept="audio/*"
            required
            disabled={busy}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <SoundFields
          idPrefix="admin-upload"
          values={values}
          onChange={(patch) => setValues((v) => ({ ...v, ...patch }))}
          categories={SOUND_CATEGORIES}
          withMinutes
          disabled={busy}
        />
        {busy && <UploadProgress label="Uploading" percent={percent} />}
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          {busy ? "Uploading…" : "Upload Sound"}
        </button>
      </form>
    </details>
  );
}
