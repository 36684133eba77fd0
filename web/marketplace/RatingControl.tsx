// An owner rates a sound 1 to 5 stars, once (POST /api/marketplace/sounds/{id}/rating). Five
// buttons in a named group; hovering or focusing one lights the stars up to it. A second rating
// answers 409 'You have already rated this sound' and the list reloads to show the one on record.

import { useState } from "react";
import { toast } from "sonner";
import { MARKETPLACE_TEXT as T, RATING_MAX, RATING_MIN } from "../../api/rules/marketplace";
import { useSession } from "../account/hooks";
import { requestMarketplaceRefresh } from "./events";
import { rateSound } from "./marketplace-api";
import { ratingErrorText } from "./rating";

const VALUES = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

interface Props {
  soundId: string;
  title: string;
}

export function RatingControl({ soundId, title }: Props) {
  const token = useSession((s) => s.token);
  const [lit, setLit] = useState(0);
  const [busy, setBusy] = useState(false);

  const rate = async (rating: number) => {
    if (busy || !token) return;
    setBusy(true);
    try {
      await rateSound(soundId, rating, token);
      toast.success(T.rated, { id: "rated" });
    } catch (err) {
      toast.error(ratingErrorText(err), { id: "rating-failed" });
    } finally {
      setBusy(false);
      requestMarketplaceRefresh();
    }
  };

  return (
    <div role="group" aria-label={`Rate ${title}`} className="rate" aria-busy={busy} onMouseLeave={() => setLit(0)}>
      <span className="rate-label" aria-hidden="true">Rate:</span>
      {VALUES.map((n) => (
        <button
          key={n}
          type="button"
          className="rate-star"
          data-lit={n <= lit}
          aria-label={`${n} ${n === 1 ? "star" : "stars"}`}
          disabled={busy}
          onMouseEnter={() => setLit(n)}
          onFocus={() => setLit(n)}
          onBlur={() => setLit(0)}
          onClick={() => void rate(n)}
        >
          ★
        </button>
      ))}
    </div>
  );
}
