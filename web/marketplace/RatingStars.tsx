// A sound's average rating as five stars filled to the average, with a text alternative for
// screen readers ('Rated 4.5 out of 5 by 2 owners', 'Not rated yet').

import { ratingText, starFill } from "./rating";

interface Props {
  rating: number;
  count: number;
}

export function RatingStars({ rating, count }: Props) {
  const fill = starFill(rating, count);
  return (
    <span className="rating">
      <span className="stars" aria-hidden="true">
        <span className="stars-empty">★★★★★</span>
        <span className="stars-fill" style={{ width: `${fill}%` }}>★★★★★</span>
      </span>
      <span aria-hidden="true" className="rating-value">{count > 0 ? `${rating.toFixed(1)} (${count})` : "New"}</span>
      <span className="sr-only">{ratingText(rating, count)}</span>
    </span>
  );
}
