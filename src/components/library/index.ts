/** The library feature: its view and typed options, for the schedule tag's `kind="library"` and the site. */
export { LibraryView, categoryNamed, useItemLinks } from './LibraryView.js';
export { LibraryTag } from './LibraryTag.js';
export { Rail } from './Rail.js';
export { RAIL_SCROLL_MS, CARD_MIN_PX, CARD_MAX_PX, type LibraryOptions } from './options.js';
export { libraryCss } from './styles.js';
