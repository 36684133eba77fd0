// The Export Video dialog (spec/studio.md sections 3-8): background (Black / Black with waveform),
// quality (720p / 1080p) and the duration, taken from the studio's and editable here down to 1 s
// ('matches 59 min limit'); Export queues the render on the server's job API (idle -> submitting),
// shows the job's progress, and the MP4 arrives as a download. Validation and failures (a failed
// job's own reason included) show in the dialog, which stays open for another try; success and an
// expired session (401/403: the stored tokens are cleared, spec 8) close it with a toast. The
// running job's id is kept in sessionStorage: opened with `resumeId` (after a page reload) the
// dialog follows that job. Cancel export (while a job runs) stops following the job, forgets it and
// cancels it on the server (its render stops, no file is kept); the dialog stays open saying so.
// Closing the dialog during a job (Escape) cancels it the same way, since the user said stop.
// A page reload or leaving the studio does not cancel: the remembered job is resumed.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { toast } from "sonner";
import {
  VIDEO_BACKGROUNDS, VIDEO_BACKGROUND_LABELS, VIDEO_QUALITIES, VIDEO_SIZES, VIDEO_TEXT, videoDurationLimit,
  type VideoBackground, type VideoQuality,
} from "../../api/rules/video";
import { mayExportVideo } from "../../api/rules/plan-access";
import { useEntitlements } from "../account/hooks";
import { refreshExportCount } from "../export/export-count";
import { sessionStore } from "../account/session-store";
import { browserStorage, readToken } from "../account/storage";
import { DURATION_MAX_CHARS, formatDuration, formatDurationInput, parseDuration } from "../state/duration";
import { levelsOf, levelsStore } from "../levels/levels-store";
import { useStudio } from "../state/studio-context";
import {
  buildPayload, cancelVideoJob, exportVideo, precheck, rememberJob, tabStorage, VideoExportError, VideoJobCancelledError,
  VideoJobGoneError, type ExportProgress,
} from "./video-export";

function size(bytes: number): string {
  return bytes < 1e6 ? `${Math.max(1, Math.round(bytes / 1e3))} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

function statusText(p: ExportProgress): string {
  if (p.phase === "queued") return "Waiting for the video renderer…";
  if (p.phase === "rendering") return `Rendering and encoding… ${Math.floor(p.progress * 100)}%`;
  return p.bytes > 0 ? `Receiving video… ${size(p.bytes)}` : "Receiving video…";
}

export function VideoExportDialog({ onClose, resumeId }: { onClose(): void; resumeId?: string | null }) {
  const store = useStudio();
  const ent = useEntitlements();
  const limit = videoDurationLimit(ent.maxDuration);
  const dialog = useRef<HTMLDialogElement>(null);
  const request = useRef<AbortController | null>(null);
  /** The job being followed, with the token it was made with (to cancel it). */
  const running = useRef<{ id: string; token: string } | null>(null);
  const [background, setBackground] = useState<VideoBackground>("black");
  const [quality, setQuality] = useState<VideoQuality>("720p");
  const [durationText, setDurationText] = useState(() => formatDuration(Math.min(store.getState().duration, limit)));
  // Opened on a remembered job, the dialog is following it from the start.
  const [submitting, setSubmitting] = useState(() => Boolean(resumeId && readToken(browserStorage())));
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The status line's text once an export was cancelled. */
  const [notice, setNotice] = useState<string | null>(null);
  const ids = useId();

  /** Follows an export to its end: a new one (`payload`) or the remembered job (`resumeId`). The
   *  dialog's state changes only in the export's callbacks. */
  const follow = (job: Parameters<typeof exportVideo>[0], token: string): Promise<void> => {
    const controller = new AbortController();
    request.current = controller;
    const ended = (err: unknown) => {
      if (request.current === controller) request.current = null;
      if (controller.signal.aborted) return; // cancelled, or the dialog was closed
      running.current = null;
      setSubmitting(false);
      setProgress(null);
      rememberJob(tabStorage(), null);
      if (err === null) {
        toast.success(VIDEO_TEXT.success);
        onClose();
      } else if (err instanceof VideoExportError && err.signOut) {
        sessionStore().getState().clear();
        toast.error(err.message);
        onClose();
      } else if (err instanceof VideoJobGoneError && "resumeId" in job) {
        // a remembered job that is no more: start afresh
      } else if (err instanceof VideoJobCancelledError) {
        setNotice(err.message); // cancelled elsewhere (another tab)
      } else {
        console.error("Video export failed:", err);
        setError(err instanceof VideoExportError ? err.message : VIDEO_TEXT.failed(err instanceof Error ? err.message : String(err)));
      }
    };
    return exportVideo(job, token, {
      signal: controller.signal,
      onJob: (id) => {
        if (controller.signal.aborted) {
          void cancelVideoJob(id, token); // stopped while it was being queued
          return;
        }
        running.current = { id, token };
        rememberJob(tabStorage(), id);
        void refreshExportCount(); // the MP4 was counted against the plan: the line under Export WAV follows
      },
      onProgress: setProgress,
    }).then(() => ended(null), ended);
  };

  /** The user said stop: stop following the running export, forget it, cancel it on the server. */
  const stopExport = () => {
    const job = running.current;
    running.current = null;
    request.current?.abort();
    request.current = null;
    rememberJob(tabStorage(), null);
    if (job) {
      void cancelVideoJob(job.id, job.token).then((done) => {
        if (!done) console.warn("Video export: the server did not confirm the cancel; the unread file expires");
      });
    }
  };

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    const token = readToken(browserStorage());
    if (resumeId && token) void follow({ resumeId }, token);
    else if (resumeId) rememberJob(tabStorage(), null);
    return () => request.current?.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on opening
  }, []);

  const close = () => {
    if (request.current) stopExport();
    onClose();
  };

  const cancelExport = () => {
    stopExport();
    setSubmitting(false);
    setProgress(null);
    setError(null);
    setNotice(VIDEO_TEXT.cancelled);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const state = store.getState();
    const parsed = parseDuration(durationText);
    const duration = Number.isNaN(parsed) ? 0 : parsed;
    const token = readToken(browserStorage());
    const problem = precheck({ token, proAccess: mayExportVideo(ent.facts), state, duration, maxDuration: limit });
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setNotice(null);
    setProgress(null);
    setSubmitting(true);
    await follow({ payload: buildPayload(state, { background, quality, duration, levels: levelsOf(levelsStore.getState()) }) }, token!);
  };

  return (
    <dialog
      ref={dialog}
      className="video-dialog"
      aria-labelledby={`${ids}-title`}
      onCancel={(e) => {
        e.preventDefault(); // Escape: close through React, which also abandons a running export
        close();
      }}
    >
      <form className="video-form" onSubmit={submit} noValidate>
        <h2 id={`${ids}-title`}>Export Video</h2>
        <fieldset className="video-choices" disabled={submitting}>
          <legend>Background</legend>
          {VIDEO_BACKGROUNDS.map((b) => (
            <label key={b} className="video-choice">
              <input type="radio" name="background" value={b} checked={background === b} onChange={() => setBackground(b)} />
              <span>{VIDEO_BACKGROUND_LABELS[b]}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="video-choices" disabled={submitting}>
          <legend>Quality</legend>
          {VIDEO_QUALITIES.map((q) => (
            <label key={q} className="video-choice">
              <input type="radio" name="quality" value={q} checked={quality === q} onChange={() => setQuality(q)} />
              <span>
                {q} <small>{VIDEO_SIZES[q].width}×{VIDEO_SIZES[q].height}</small>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="field video-duration">
          <span>Duration (HH:MM:SS)</span>
          <input
            type="text"
            inputMode="numeric"
            maxLength={DURATION_MAX_CHARS}
            aria-describedby={`${ids}-duration-help`}
            value={durationText}
            disabled={submitting}
            onChange={(e) => setDurationText(formatDurationInput(e.target.value))}
          />
          <small id={`${ids}-duration-help`}>From the studio's duration; matches 59 min limit.</small>
        </label>
        <p className="video-status" role="status" aria-live="polite">
          {submitting ? (progress ? statusText(progress) : "Starting the export…") : (notice ?? "")}
        </p>
        {submitting && (
          <progress
            className="video-progress"
            aria-label="Video export progress"
            max={1}
            value={progress?.phase === "rendering" ? progress.progress : progress?.phase === "downloading" ? 1 : undefined}
          />
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="video-actions">
          <button type="button" className="button" onClick={submitting ? cancelExport : close}>
            {submitting ? "Cancel export" : "Cancel"}
          </button>
          <button type="submit" className="button primary" disabled={submitting} aria-busy={submitting}>
            {submitting ? "Exporting…" : "Export"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
