// The marketplace upload form's rules on the client (spec/accounts.md section 5, spec/studio.md
// sections 5 and 8), checked before anything is sent, with the same texts the API answers with
// (api/rules/marketplace.ts; the API checks everything again). Also the multipart body both upload
// forms send. Pure: unit-tested without a browser.

import {
  DESCRIPTION_MAX, MARKETPLACE_TEXT as T, PRICE_MIN_PAID_CENTS, SOUND_CATEGORIES, SPECS_MAX, TITLE_MAX,
  UPLOAD_MAX_MINUTES, UPLOAD_MIN_MINUTES, parsePriceCents,
} from "../../api/rules/marketplace";

/** The text fields as typed (the form keeps strings; the API parses them). */
export interface UploadFields {
  title: string;
  description: string;
  /** USD decimal, e.g. "1.99"; "0" for a free sound. */
  price: string;
  /** Whole minutes, 1 to 59. */
  minutes: string;
  category: string;
  /** Comma separated. */
  tags: string;
  specs: string;
}

export const EMPTY_UPLOAD_FIELDS: UploadFields = {
  title: "",
  description: "",
  price: "",
  minutes: "",
  category: "",
  tags: "",
  specs: "",
};

/** The first broken rule's text, or null when the form may be sent. File, title, price and
 *  duration are required ('Please fill in all required fields'). */
export function validateUploadFields(f: UploadFields, hasFile: boolean): string | null {
  if (!hasFile || !f.title.trim() || !f.price.trim() || !f.minutes.trim()) return T.fieldsMissing;
  const cents = parsePriceCents(f.price);
  if (cents === null) return T.priceInvalid;
  if (cents > 0 && cents < PRICE_MIN_PAID_CENTS) return T.priceBelowMinimum;
  const minutes = f.minutes.trim();
  if (!/^\d{1,3}$/.test(minutes) || Number(minutes) < UPLOAD_MIN_MINUTES || Number(minutes) > UPLOAD_MAX_MINUTES) {
    return T.durationInvalid;
  }
  if (!SOUND_CATEGORIES.some((c) => c === f.category)) return T.categoryInvalid;
  if (f.title.trim().length > TITLE_MAX) return T.titleTooLong;
  if (f.description.trim().length > DESCRIPTION_MAX) return T.descriptionTooLong;
  if (f.specs.trim().length > SPECS_MAX) return T.specsTooLong;
  return null;
}

/** The multipart body of POST /api/marketplace/upload-direct: the text fields first, the file
 *  last (the server streams the file to disk as it arrives and has the fields by then). */
export function uploadFormData(f: UploadFields, audio: Blob, fileName: string, frequencies?: unknown): FormData {
  const form = new FormData();
  form.set("title", f.title.trim());
  form.set("description", f.description.trim());
  form.set("price", f.price.trim());
  form.set("duration", f.minutes.trim());
  form.set("category", f.category);
  form.set("tags", f.tags);
  form.set("specs", f.specs.trim());
  if (frequencies !== undefined) form.set("frequencies", JSON.stringify(frequencies));
  form.set("audio", audio, fileName);
  return form;
}
