// Ratings without React: the text alternative of a sound's stars, how far they are filled, and
// the text of a failed rating. Pure: unit-tested.

import { MARKETPLACE_TEXT as T, RATING_MAX } from "../../api/rules/marketplace";
import { ApiRequestError, REQUEST_FAILED } from "../account/api";

/** 'Rated 4.5 out of 5 by 2 owners', 'Not rated yet'. */
export function ratingText(rating: number, count: number): string {
  if (count <= 0) return "Not rated yet";
  return `Rated ${rating.toFixed(1)} out of ${RATING_MAX} by ${count} ${count === 1 ? "owner" : "owners"}`;
}

/** Percent of the five stars to fill. */
export function starFill(rating: number, count: number): number {
  return count > 0 ? Math.min(100, Math.max(0, (rating / RATING_MAX) * 100)) : 0;
}

/** 409: 'You have already rated this sound'; the server's other refusals in its words. */
export function ratingErrorText(err: unknown): string {
  if (!(err instanceof ApiRequestError) || err.network) return T.ratingFailed;
  if (err.status === 409) return T.alreadyRated;
  return err.message && err.message !== REQUEST_FAILED ? err.message : T.ratingFailed;
}
