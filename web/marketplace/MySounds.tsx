// "My sounds": what the signed-in user owns, newest purchase first, each with Download and a rating.

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
      {status === "failed" && (
        <p className="help">
          Your sounds could not be loaded.{" "}
          <button type="button" className="link" onClick={onRetry}>
            Try again
          </button>
        </p>
      )}
      {status === "ready" && sounds.length === 0 && <p className="help">Sounds you buy appear here, ready to download.</p>}
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
