/**
 * TEMPORARY: the tag manager moved to src/stores/tag-manager.ts (lib imports nothing of ours, and it needs the
 * environment). This re-export keeps the checkout compiling until its import is switched; then delete this file.
 */
export { tagManager } from '../stores/tag-manager.js';
