// POST /api/marketplace/upload-direct with upload progress (XMLHttpRequest: fetch reports no
// upload progress), and the texts a failed upload shows. The studio's Upload to Store uses the
// texts of spec/studio.md section 8 (401, 429, the server's error or 'Upload failed: {status}
// {text}', the network text); the admin form on /marketplace shows the server's text or
// 'Upload failed' (spec/accounts.md section 8).

import { MARKETPLACE_TEXT as T } from "../../api/rules/marketplace";
import type { MarketplaceSound } from "./marketplace-api";

export const UPLOAD_PATH = "/api/marketplace/upload-direct";

/** What came back: an HTTP answer (any status), or no answer at all. */
export type UploadResult =
  | { kind: "answer"; status: number; statusText: string; body: unknown }
  | { kind: "network" }
  | { kind: "aborted" };

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0..1 of the body sent. */
  fraction: number;
}

export interface SendOptions {
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
  /** Tests pass a stand-in. */
  makeXhr?: () => XMLHttpRequest;
}

/** Sends `form` with the bearer token; never rejects (see UploadResult). */
export function sendUpload(form: FormData, token: string, opts: SendOptions = {}): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = opts.makeXhr ? opts.makeXhr() : new XMLHttpRequest();
    xhr.open("POST", UPLOAD_PATH);
    xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.({ loaded: e.loaded, total: e.total, fraction: e.loaded / e.total });
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null; // not JSON (a proxy's page): the status speaks
      }
      resolve({ kind: "answer", status: xhr.status, statusText: xhr.statusText, body });
    };
    xhr.onerror = () => resolve({ kind: "network" });
    xhr.ontimeout = () => resolve({ kind: "network" });
    xhr.onabort = () => resolve({ kind: "aborted" });
    if (opts.signal) {
      if (opts.signal.aborted) {
        resolve({ kind: "aborted" });
        return;
      }
      opts.signal.addEventListener("abort", () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

function serverError(body: unknown): string | null {
  const e = body && typeof body === "object" ? (body as { error?: unknown }).error : undefined;
  return typeof e === "string" && e.trim() ? e : null;
}

/** The stored sound of a successful upload, or null when the answer is not a success. */
export function uploadedSound(r: UploadResult): MarketplaceSound | null {
  if (r.kind !== "answer" || r.status < 200 || r.status >= 300) return null;
  const body = r.body as { success?: unknown; sound?: MarketplaceSound } | null;
  return body?.success === true && body.sound ? body.sound : null;
}

/** spec/studio.md section 8, 'Upload'. Null for a success or an abort. */
export function studioUploadErrorText(r: UploadResult): string | null {
  if (r.kind === "aborted") return null;
  if (r.kind === "network") return T.uploadNetwork;
  if (uploadedSound(r)) return null;
  if (r.status === 401) return T.uploadAuthFailed;
  if (r.status === 429) return T.uploadRateLimited;
  return serverError(r.body) ?? T.uploadHttp(r.status, r.statusText || "Error");
}

/** spec/accounts.md section 8: the server's text or 'Upload failed'. Null for a success or an abort. */
export function adminUploadErrorText(r: UploadResult): string | null {
  if (r.kind === "aborted") return null;
  if (r.kind === "network") return T.uploadFailed;
  if (uploadedSound(r)) return null;
  return serverError(r.body) ?? T.uploadFailed;
}
