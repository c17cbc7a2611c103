/** Starts a file download the way a link with `download` does (the MP4 of an event or a clip). */
export function saveFile(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
