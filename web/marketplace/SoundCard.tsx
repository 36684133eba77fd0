// One sound on /marketplace (spec/accounts.md section 2): title, description, up to 3 tags,
// price (cents / 100, 2 decimals), duration (m:ss), downloads, rating, Preview and Buy Now. Its
// <audio preload="none"> loads nothing until Preview, then streams the preview with range
// requests; the page's PreviewController decides which card plays.

import { useCallback } from "react";
import { CARD_TAGS, formatPrice, formatSoundDuration } from "../../api/rules/marketplace";
import type { MarketplaceSound } from "./marketplace-api";
import type { PreviewController } from "./preview-controller";
import { RatingStars } from "./RatingStars";
import { useIsPreviewing } from "./use-preview";

interface Props {
  sound: MarketplaceSound;
  preview: PreviewController;
  owned: boolean;
  buying: boolean;
  /** Another purchase is on its way: this card's Buy Now waits. */
  buyLocked: boolean;
  onBuy(sound: MarketplaceSound): void;
}

export function SoundCard({ sound, preview, owned, buying, buyLocked, onBuy }: Props) {
  const playing = useIsPreviewing(preview, sound.id);
  const titleId = `sound-${sound.id}-title`;
  const attach = useCallback((el: HTMLAudioElement | null) => (el ? preview.register(sound.id, el) : undefined), [preview, sound.id]);
  const tags = sound.metadata.tags.slice(0, CARD_TAGS);

  return (
    <article className="sound-card" aria-labelledby={titleId} data-category={sound.category} data-playing={playing}>
      <div className="sound-head">
        <h3 id={titleId}>{sound.title}</h3>
        <div className="sound-flags">
          <p className="sound-category">{sound.category}</p>
          {owned && <span className="badge owned">Owned</span>}
        </div>
      </div>
      {sound.description && <p className="sound-desc">{sound.description}</p>}
      {tags.length > 0 && (
        <ul className="sound-tags" aria-label="Tags">
          {tags.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      )}
      <dl className="sound-meta">
        <div>
          <dt>Price</dt>
          <dd className="sound-price">
            ${formatPrice(sound.price)}
            {sound.price === 0 && <span className="badge free">Free</span>}
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatSoundDuration(sound.duration)}</dd>
        </div>
        <div>
          <dt>Downloads</dt>
          <dd>{sound.downloads}</dd>
        </div>
        <div>
          <dt>Rating</dt>
          <dd>
            <RatingStars rating={sound.rating} count={sound.ratingCount} />
          </dd>
        </div>
      </dl>
      <div className="sound-actions">
        <button type="button" className="button preview" aria-describedby={titleId} onClick={() => preview.toggle(sound.id)}>
          {playing ? "Stop" : "Preview"}
        </button>
        <button
          type="button"
          className="button primary"
          aria-describedby={titleId}
          aria-busy={buying}
          disabled={buying || buyLocked}
          onClick={() => onBuy(sound)}
        >
          {buying ? "Processing…" : "Buy Now"}
        </button>
      </div>
      <audio ref={attach} preload="none" src={sound.fileUrl} />
    </article>
  );
}
