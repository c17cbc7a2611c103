/** The options of the profile view: which section of a signed-in profile opens first. */
import type { AccountScreenName } from '../../lib/account-routes.js';

/** The sections of a signed-in profile, in tab order. */
export const PROFILE_SECTIONS = ['orders', 'transactions', 'clips', 'favourites', 'devices', 'edit'] as const;
/** One section. */
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

/** What the profile view is told by whoever renders it (the tag's attributes, or the site's route). */
export interface ProfileOptions {
  /** The section shown (devices without the channel's remote auth shows the orders). */
  section: ProfileSection;
  /**
   * The screen the address names (a site's /login, /registration, ..., or the tag's page path ending with one); a
   * guest sees sign-in without one.
   */
  guest?: AccountScreenName | undefined;
}
