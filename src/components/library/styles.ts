/**
 * Styles of the library view (the tag's and the site's). Card widths stay between `CARD_MIN_PX` and `CARD_MAX_PX`
 * whatever the element's width: a rail sizes its cards from its own width (container units), so a narrow CMS
 * column and a phone get the same cards as a page of that width.
 */
import { CARD_MAX_PX, CARD_MIN_PX } from './options.js';

/** The library's CSS. */
export const libraryCss = /* css */ `
.library { display: grid; gap: 16px; min-width: 0; }
.library .head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 8px 16px; }
.library .title { font-size: 1.35em; font-weight: 700; line-height: 1.2; }
.section-title, .rail-title { font-size: 1.12em; font-weight: 700; line-height: 1.25; overflow-wrap: anywhere; }
.count { color: var(--_muted); font-size: .9em; }
.search { display: grid; gap: 4px; max-width: 480px; }
.search label { font-size: .85em; color: var(--_muted); font-weight: 600; }
.search input {
  min-height: 40px; padding: 6px 12px; border: 1px solid var(--_line); border-radius: 999px;
  background: var(--channel-input-background, #fff); color: var(--channel-input-text, #16181d); font-size: 1.05em;
}
.chips { display: flex; flex-wrap: wrap; gap: 8px; }
.chip {
  min-height: 34px; padding: 4px 14px; border-radius: 999px; cursor: pointer; font-weight: 600;
  background: transparent; border: 1px solid var(--_line);
}
.chip:hover { border-color: var(--_accent); }
.chip[aria-pressed="true"] { background: var(--_accent); color: var(--_accent-text); border-color: transparent; }
.rails { display: grid; gap: 22px; min-width: 0; }
.rail { container-type: inline-size; min-width: 0; }
.rail-head { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin-bottom: 8px; }
.rail-controls { display: flex; gap: 6px; flex: none; }
.rail-button {
  width: 36px; height: 36px; border-radius: 50%; cursor: pointer; line-height: 1; font-size: 1.05em;
  background: var(--_surface); border: 1px solid var(--_line);
}
.rail-button:hover { border-color: var(--_accent); }
.track {
  list-style: none; display: grid; grid-auto-flow: column; gap: 12px; padding: 4px 2px 10px;
  grid-auto-columns: clamp(${CARD_MIN_PX}px, 85cqi, ${CARD_MAX_PX}px);
  overflow-x: auto; overscroll-behavior-x: contain; scroll-snap-type: x mandatory; scroll-padding-inline: 2px;
}
.track > li { scroll-snap-align: start; min-width: 0; }
.lib-grid {
  list-style: none; display: grid; gap: 12px; justify-content: start;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, ${CARD_MIN_PX}px), ${CARD_MAX_PX}px));
}
.lib-card {
  display: flex; flex-direction: column; height: 100%; overflow: hidden; text-decoration: none; color: inherit;
  border-radius: var(--_radius); background: var(--channel-card-background, var(--_surface)); border: 1px solid var(--_line);
}
.lib-card:hover { border-color: var(--_accent); }
.thumb { position: relative; display: block; aspect-ratio: 16 / 9; background: var(--_line); overflow: hidden; }
.thumb img, .thumb .preview { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; display: block; }
.duration {
  position: absolute; right: 6px; bottom: 6px; padding: 1px 6px; border-radius: 4px; font-size: .78em; font-weight: 600;
  background: rgba(0,0,0,.75); color: #fff; font-variant-numeric: tabular-nums;
}
.card-body { display: grid; gap: 4px; padding: 10px 12px 12px; }
.card-title { font-weight: 650; line-height: 1.3; overflow-wrap: anywhere; }
.card-date { font-size: .85em; color: var(--_muted); }
.lock {
  justify-self: start; display: inline-flex; align-items: center; gap: 5px; padding: 1px 8px; border-radius: 999px;
  font-size: .75em; font-weight: 700; background: var(--channel-paid, #fdecc8); color: #5c3b00;
}
.lock.sign-in { background: #dfe9fb; color: #173e87; }
.more { display: flex; justify-content: center; padding: 14px 0 4px; }
.watch-details { display: grid; gap: 8px; }
.watch-details .name { font-size: 1.3em; font-weight: 700; line-height: 1.25; }
.watch-details dl { display: flex; flex-wrap: wrap; gap: 4px 18px; color: var(--_muted); font-size: .92em; }
.watch-details dt { font-weight: 600; }
.watch-details dt::after { content: ":"; }
.watch-details dl div { display: flex; gap: 6px; }
.watch-details .description { max-width: 70ch; white-space: pre-line; }
@media (prefers-reduced-motion: reduce) { .track { scroll-behavior: auto; } }
`;
