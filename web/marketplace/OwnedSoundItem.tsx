// One row of My sounds: the sound, Download (a 10-minute link the browser follows, so the file
// streams to disk rather than into the page) and the owner's rating control, or their rating
// once given.

import { useState } from "react";
import { toast } from "sonner";
import { MARKETPLACE_TEXT as T, RATING_MAX, formatSoundDuration } from "../../api/rules/marketplace";
import { ApiRequestError } from "../account/api";
import { useSession } from "../account/hooks";
import { downloadLink, type OwnedSound } from "./marketplace-api";
import { RatingControl } from "./RatingControl";

export function OwnedSoundItem({ sound }: { sound: OwnedSound }) {
  const token = useSession((s) => s.token);
  const [busy, setBusy] = useState(false);
  const titleId = `owned-${sound.id}-title`;

  const download = async () => {
    if (busy || !token) return;
    setBusy(true);
    try {
      window.location.assign(await downloadLink(sound.id, token));
    } catch (err) {
      console.warn("Download failed", err);
      toast.error(err instanceof ApiRequestError && !err.network && err.status < 500 ? err.message : T.downloadFailed, { id: "download-failed" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="owned-sound">
      <div className="owned-info">
        <h3 id={titleId}>{sound.title}</h3>
        <p>
          {sound.category} · {formatSoundDuration(sound.duration)}
        </p>
      </div>
      <div className="owned-actions">
        <button type="button" className="button primary" aria-describedby={titleId} aria-busy={busy} disabled={busy} onClick={() => void download()}>
          Download
        </button>
        {sound.myRating === null ? (
          <RatingControl soundId={sound.id} title={sound.title} />
        ) : (
          <p className="my-rating">
            <span aria-hidden="true" className="my-rating-stars">
              {"★".repeat(sound.myRating)}
              {"☆".repeat(RATING_MAX - sound.myRating)}
            </span>
            <span>
              Your rating: {sound.myRating}/{RATING_MAX}
            </span>
          </p>
        )}
      </div>
    </li>
  );
}
