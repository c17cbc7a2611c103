/**
 * Styles of clips wherever they show: the player's clip maker (button, panel, timeline, form), a clip's state and
 * actions (the maker and the profile), and the clips strip. Adopted next to the element's or page's own sheet.
 */
export const clipsCss = /* css */ `
.clip-maker { display: grid; gap: 10px; justify-items: start; }
.clip-badge { font-weight: 500; }
.clip-panel {
  display: grid; gap: 12px; width: 100%; padding: 14px 16px; border-radius: var(--_radius);
  background: var(--channel-card-background, var(--_surface)); border: 1px solid var(--_line);
}
.clip-panel-head { display: flex; align-items: center; justify-content: space-between; gap: 10px; }
.clip-panel-title { font-size: 1.1em; font-weight: 700; }
.clip-panel-title:focus { outline: none; }
.clip-panel-title:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.clip-form { display: grid; gap: 12px; }
.clip-form .actions, .clip-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.clip-form .field { display: grid; gap: 4px; max-width: 420px; }
.clip-form label, .clip-tags legend { font-size: .9em; font-weight: 600; }
.clip-form input {
  width: 100%; min-height: 38px; padding: 6px 10px; border: 1px solid var(--_line); border-radius: 8px;
  background: var(--channel-input-background, #fff); color: var(--channel-input-text, #16181d);
}
.clip-form input[aria-invalid="true"] { border-color: var(--channel-error, #b3261e); }
.clip-form .hint { font-size: .85em; color: var(--_muted); }
.clip-form .field-error, .clip-form .form-error, .clip-error, .clip-failed [role="alert"] {
  color: var(--channel-error, #b3261e); font-size: .9em; font-weight: 600;
}
.clip-form .form-error:focus { outline: none; }
.clip-tags { display: grid; gap: 6px; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; }
.chip {
  padding: 4px 12px; border-radius: 999px; border: 1px solid var(--_line); background: transparent; cursor: pointer;
  font-size: .9em;
}
.chip[aria-pressed="true"] { background: var(--_accent); color: var(--_accent-text); border-color: var(--_accent); }
.clip-timeline { padding: 40px 0 4px; }
.clip-track {
  position: relative; height: 40px; border-radius: 6px; background: var(--_line); touch-action: none;
}
.clip-strip { position: absolute; inset: 0; display: flex; overflow: hidden; border-radius: inherit; opacity: .85; }
.clip-strip .clip-crop { flex: none; background-repeat: no-repeat; }
.clip-range {
  position: absolute; top: 0; bottom: 0; background: color-mix(in srgb, var(--_accent) 30%, transparent);
  border-top: 3px solid var(--_accent); border-bottom: 3px solid var(--_accent); pointer-events: none;
}
.clip-playhead {
  position: absolute; top: -4px; bottom: -4px; width: 2px; margin-left: -1px; background: #fff;
  box-shadow: 0 0 0 1px #000; pointer-events: none;
}
.clip-handle {
  position: absolute; top: -6px; bottom: -6px; width: 16px; margin-left: -8px; border-radius: 4px; cursor: ew-resize;
  background: var(--_accent); border: 2px solid #fff; box-shadow: 0 1px 4px rgba(0, 0, 0, .35); touch-action: none;
}
.clip-handle:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
.clip-handle[aria-invalid="true"] { background: var(--channel-error, #b3261e); }
.clip-preview {
  position: absolute; bottom: calc(100% + 8px); transform: translateX(-50%); z-index: 1;
  display: grid; gap: 2px; justify-items: center; padding: 4px; border-radius: 6px;
  background: #0b0d12; color: #f4f6fb; font-size: .8em; pointer-events: none;
}
.clip-preview .clip-crop { max-width: 160px; background-repeat: no-repeat; }
.clip-selection { font-variant-numeric: tabular-nums; font-size: .9em; }
.clip-outcome { display: grid; gap: 8px; justify-items: start; }
.clip-progress { display: grid; gap: 4px; width: min(100%, 420px); }
.clip-progress progress, .stage progress { width: 100%; height: 10px; accent-color: var(--_accent); }
.clip-ready { font-weight: 600; }
.clip-failed { display: grid; gap: 6px; justify-items: start; }
.clip-confirm { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.clip-confirm p { flex-basis: 100%; }
.clip-link input { width: min(100%, 420px); padding: 4px 8px; border: 1px solid var(--_line); border-radius: 6px; }
.clip-note { font-size: .9em; }
.btn.danger { background: var(--channel-error, #b3261e); color: #fff; }
.clip-from a, .clip-strip-card a { color: inherit; }
.clip-tag-list { display: inline-flex; flex-wrap: wrap; gap: 4px; }
.clips-strip { display: grid; gap: 8px; }
.clips-strip h2 { font-size: 1.1em; font-weight: 700; }
.clips-strip ul {
  list-style: none; display: grid; gap: 10px; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr));
}
.clip-card { display: grid; gap: 4px; text-decoration: none; color: inherit; }
.clip-card img, .clip-card .clip-card-blank {
  width: 100%; aspect-ratio: 16 / 9; object-fit: cover; border-radius: 8px; background: var(--_line);
}
.clip-card-name { font-weight: 650; }
.clip-card:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
`;
