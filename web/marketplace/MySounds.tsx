// "My sounds" (signed-in users): what they own, newest purchase first, each with Download and a
// rating; a line saying what will appear here while they own nothing.

import type { LoadStatus } from "./use-sounds";
import type { OwnedSound } from "./marketplace-api";
import { OwnedSoundItem } from "./OwnedSoundItem";

interface Props {
  sounds: OwnedSound[];
  status: LoadStatus;
  onRetry(): void;
}

export function MySounds({ sounds, status, onRetry }: Props) {
  return (
    <section className="panel my-sounds" aria-labelledby="my-sounds-title">
      <h2 id="my-sounds-title">My sounds</h2>
      {status === "loading" && sounds.length === 0 && <p className="help">Loading your sounds…</p>}
      {status === "failed" && (
        <p className="help">
          Your sounds could not be loaded.{" "}
          <button type="button" className="link" onClick={onRetry}>
            Try again
          </button>
        </p>
      )}
      {status === "ready" && sounds.length === 0 && <p className="help">Sounds you buy appear here, ready to download and rate.</p>}
      {sounds.length > 0 && (
        <ul className="owned-list">
          {sounds.map((s) => (
            <OwnedSoundItem key={s.id} sound={s} />
          ))}
        </ul>
      )}
    </section>
  );
}
