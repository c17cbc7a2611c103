/**
 * `<channel-profile>`'s root component: parses the attributes once per change and renders the profile view (with
 * the notices of ignored values) in the element's frame. Everything else is the view's.
 */
import type { ReactNode } from 'react';
import { dialogCss } from '../checkout/styles.js';
import { clipsCss } from '../clips/styles.js';
import { useAttributes } from '../ui/attributes.js';
import { ElementShell, type ShellProps } from '../ui/shell.js';
import { PROFILE_PROPS, parseProfileProps, type ProfileProps } from './attributes.js';
import { favouritesCss } from './FavouritesPanel.js';
import type { ProfileOptions } from './options.js';
import { ProfileView } from './ProfileView.js';
import { profileCss } from './styles.js';

/** The element's sheet: its own styles, the favourites panel's, the subscription dialog's and the clips'. */
const css = profileCss + favouritesCss + dialogCss + clipsCss;

/** The element's root component. */
export function Profile(props: ProfileProps & ShellProps): ReactNode {
  const { options, notices } = useAttributes<ProfileProps, ProfileOptions>(
    'channel-profile',
    PROFILE_PROPS,
    props,
    parseProfileProps,
  );
  return (
    <ElementShell container={props.container} lang={props.lang} css={css}>
      {() => <ProfileView options={options} notices={notices} />}
    </ElementShell>
  );
}
