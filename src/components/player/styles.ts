/** Styles of `<channel-player>`. */
export const playerCss = /* css */ `
/* One column as wide as the element: the stage's 16:9 ratio must not turn a tall paywall into a wide player. */
.player { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
.head { display: grid; gap: 4px; }
.title { font-size: 1.3em; font-weight: 700; line-height: 1.25; }
.meta { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; color: var(--_muted); font-size: .9em; }
.badge {
  display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: .75em; font-weight: 700; line-height: 1.5;
  text-transform: uppercase; letter-spacing: .04em; background: var(--_line);
  /* The text colour, not the muted one of the line it sits in: muted on the badge's grey is below 4.5:1. */
  color: var(--channel-text, var(--channel-body-text-color, #16181d));
}
.badge.live { background: var(--_live); color: #fff; }
.stage {
  position: relative; aspect-ratio: 16 / 9; width: 100%; border-radius: var(--_radius); padding: 12px 0;
  background: var(--channel-player-background, #0b0d12); color: #f4f6fb; display: grid; place-items: center;
}
/* A message stage grows with its content (a long paywall); a video stage keeps 16:9 and clips to its corners. */
.stage.video { overflow: hidden; padding: 0; }
.poster { border-radius: inherit; }
.stage:focus-within { outline: 3px solid var(--_accent); outline-offset: 2px; }
.stage video { position: absolute; inset: 0; width: 100%; height: 100%; background: #000; }
.stage .embedded { position: absolute; inset: 0; width: 100%; height: 100%; border: 0; background: #000; }
.poster { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; opacity: .35; }
.stage > .panel {
  position: relative; max-width: min(560px, 92%); display: grid; gap: 10px; justify-items: center; text-align: center;
  padding: 18px 20px; border-radius: var(--_radius); background: rgba(11, 13, 18, .78); color: #f4f6fb;
}
.stage .panel h3 { font-size: 1.15em; font-weight: 700; }
.stage .panel .detail { color: #c9cfdb; font-size: .9em; }
.overlay {
  position: absolute; inset: auto 0 0 0; margin: auto; top: 0; height: fit-content; width: fit-content; max-width: 92%;
  display: flex; gap: 10px; align-items: center; padding: 12px 16px; border-radius: var(--_radius);
  background: rgba(11, 13, 18, .82); color: #f4f6fb; z-index: 2;
}
.overlay.panel { display: grid; justify-items: center; text-align: center; }
.clock { font-size: 2.2em; font-weight: 700; font-variant-numeric: tabular-nums; letter-spacing: .02em; }
.big-play {
  position: absolute; inset: 0; margin: auto; width: 84px; height: 84px; border-radius: 50%; z-index: 2;
  display: grid; place-items: center; font-size: 2em; cursor: pointer; border: 0;
  background: var(--_accent); color: var(--_accent-text); box-shadow: 0 4px 24px rgba(0, 0, 0, .4);
}
.big-play:focus-visible { outline: 3px solid #fff; outline-offset: 3px; }
.ad-label {
  position: absolute; top: 10px; left: 10px; z-index: 2; padding: 2px 10px; border-radius: 6px;
  background: #ffd23f; color: #1b1b1b; font-weight: 800; font-size: .85em; letter-spacing: .04em;
}
.unmute { position: absolute; top: 10px; right: 10px; z-index: 2; }
.captions { position: absolute; top: 10px; left: 10px; z-index: 2; }
.spinner {
  width: 22px; height: 22px; border-radius: 50%; border: 3px solid rgba(255, 255, 255, .3); border-top-color: #fff;
  animation: spin .9s linear infinite;
}
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
.paywall { width: min(560px, 92%); }
.offers { list-style: none; display: grid; gap: 8px; width: 100%; text-align: start; }
.offer {
  display: grid; grid-template-columns: 1fr auto; gap: 2px 12px; align-items: center; padding: 10px 12px;
  border-radius: 10px; background: rgba(255, 255, 255, .08);
}
.offer-kind { font-size: .75em; text-transform: uppercase; letter-spacing: .05em; color: #c9cfdb; grid-column: 1; }
.offer-name { font-weight: 650; grid-column: 1; }
.offer-price { grid-column: 1; }
.offer-trial { grid-column: 1; font-size: .85em; color: #b5f5c8; }
.offer .btn { grid-column: 2; grid-row: 1 / span 4; }
.actions { display: flex; gap: 10px; align-items: center; }
.embed .stage { border-radius: 0; }
/* The bar under a playing video: Go to live, Start over, speed, quality, picture-in-picture. */
.media-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; font-size: .9em; }
.media-bar .spacer { flex: 1; }
.media-bar .btn { min-height: 32px; padding: 4px 12px; }
.media-bar .btn.quiet { background: transparent; color: inherit; border-color: var(--_line); }
.media-bar .btn[aria-pressed='true'] { background: var(--_accent); color: var(--_accent-text); }
.live-edge .dot { width: 8px; height: 8px; border-radius: 50%; background: currentColor; opacity: .55; }
.live-edge[data-state='edge'] { background: var(--_live); color: #fff; }
.live-edge[data-state='edge'] .dot { background: #fff; opacity: 1; }
.live-edge .behind { font-variant-numeric: tabular-nums; font-weight: 500; }
.resumed { color: var(--_muted); }
.media-bar .menu { display: inline-flex; align-items: center; gap: 6px; }
.media-bar select {
  min-height: 32px; padding: 4px 8px; border-radius: 8px; border: 1px solid var(--_line); background: var(--_surface);
}
.embed .media-bar { padding: 6px 8px; }
`;
