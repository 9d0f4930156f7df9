/** Lets the browser save `blob` as a file named `filename`, as a download link would. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL only after the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
