/**
 * The authentication routes, /profile with its children, /profile/edit, the one-time link pages (verify-email,
 * password-reset, confirm-account-deletion) and social callbacks: the profile view, told its screen and section by
 * the route. The view reads a one-time link's values from the address itself, as it does in `<channel-profile>`.
 */
import { useMemo, type ReactNode } from 'react';
import type { RouteName } from '../../../lib/routes.js';
import { dialogCss } from '../../checkout/styles.js';
import { favouritesCss } from '../../profile/FavouritesPanel.js';
import type { ProfileOptions, ProfileSection } from '../../profile/options.js';
import { ProfileView } from '../../profile/ProfileView.js';
import { clipsCss } from '../../clips/styles.js';
import { profileCss } from '../../profile/styles.js';
import { useElement } from '../../ui/context.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';

const SECTIONS: Partial<Record<RouteName, ProfileSection>> = {
  profileTransactions: 'transactions',
  profileClips: 'clips',
  profileSessionsAdd: 'devices',
  profileEdit: 'edit',
};

const GUEST: Partial<Record<RouteName, ProfileOptions['guest']>> = {
  login: 'sign-in',
  registration: 'register',
  passwordResetRequest: 'reset-request',
  verifyNotice: 'verify-notice',
};

/** Title keys of the account routes (the profile's children share one). */
const TITLES: Partial<Record<RouteName, string>> = {
  login: 'login',
  registration: 'registration',
  verifyNotice: 'verifyNotice',
  verifyEmail: 'verifyEmail',
  passwordResetRequest: 'passwordResetRequest',
  passwordReset: 'passwordReset',
  confirmAccountDeletion: 'confirmAccountDeletion',
  authCallback: 'login',
};

/** The account page. */
export default function AccountPage(): ReactNode {
  useSiteStyles(profileCss, favouritesCss, dialogCss, clipsCss);
  const { t } = useElement();
  const { route } = useSite();
  const name = route.name as RouteName;
  const section = SECTIONS[name] ?? 'orders';
  const guest = GUEST[name];
  const options = useMemo<ProfileOptions>(() => ({ section, guest }), [section, guest]);
  return (
    <>
      <PageHeading title={t(`site:titles.${TITLES[name] ?? 'profile'}`)} className="page-title sr-only" />
      <ProfileView options={options} />
    </>
  );
}
