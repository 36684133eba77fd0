// The progress of an upload (and, in the studio, of the render before it): a labelled bar.

interface Props {
  label: string;
  /** 0 to 100. */
  percent: number;
}

export function UploadProgress({ label, percent }: Props) {
  const p = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className="upload-progress">
      <div className="upload-bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={p} aria-valuetext={`${label}: ${p}%`}>
        <div className="upload-bar-fill" style={{ width: `${p}%` }} />
      </div>
      <span className="upload-progress-text" aria-hidden="true">
        {label}: {p}%
      </span>
    </div>
  );
}
