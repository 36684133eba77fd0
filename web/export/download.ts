// Saves a Blob (or a File read from the export's disk storage) as a download named `fileName`,
// through a temporary object URL and a clicked link: the one way the studio hands files over.

export function saveAs(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  // The download reads the blob; the URL only has to live until it has started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
