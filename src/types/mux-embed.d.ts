/** mux-embed's package exports do not point at its bundled types; only the default export is used here. */
declare module 'mux-embed' {
  const mux: {
    monitor(video: HTMLMediaElement, options: Record<string, unknown>): void;
    destroyMonitor(video: HTMLMediaElement): void;
  };
  export default mux;
}
