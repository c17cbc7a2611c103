/** TEMPORARY shim while the player moves to the commerce domain (src/stores/commerce); deleted at the merge. */
export * from '../stores/commerce/access.js';
export * from '../stores/commerce/offers.js';
