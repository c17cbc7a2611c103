/**
 * `<channel-profile>`'s root component: parses the attributes once per change and renders the profile view (with
 * the notices of ignored values) in the element's frame. On a host page at an account path it also keeps the
 * page's address and the view's screen in step. Everything else is the view's.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { accountScreenHref, accountScreenOf } from '../../lib/account-routes.js';
import { env } from '../../lib/env.js';
import { dialogCss } from '../checkout/styles.js';
import { clipsCss } from '../clips/styles.js';
import { useAttributes } from '../ui/attributes.js';
import { ElementShell, type ShellProps } from '../ui/shell.js';
import { tagViewHost, type ViewHost } from '../ui/view.js';
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
  const address = useAccountAddress(props.container);
  const guest = address.screen;
  const viewOptions = useMemo(() => ({ ...options, guest }), [options, guest]);
  return (
    <ElementShell container={props.container} lang={props.lang} css={css} viewHost={address.viewHost}>
      {() => <ProfileView options={viewOptions} notices={notices} />}
    </ElementShell>
  );
}

/** The page's path, read now. */
const pagePath = () => env().location()?.pathname ?? '';

/**
 * The account address of a host page that serves the element at the account paths (`…/login`, `…/registration`,
 * `…/verify-notice`, `…/password-reset-request` and the emailed links' paths): the screen its path names, and the
 * tag's view host, which moves the address when the viewer switches screens (a new history entry, so Back and
 * Forward switch back). At any other path there is no screen and the host's address is never touched.
 */
function useAccountAddress(container: ShellProps['container']): {
  screen: ProfileOptions['guest'];
  viewHost: ViewHost | undefined;
} {
  const [path, setPath] = useState(pagePath);
  useEffect(() => {
    const target = env().eventTarget;
    const follow = () => setPath(pagePath());
    target?.addEventListener('popstate', follow);
    return () => target?.removeEventListener('popstate', follow);
  }, []);
  const viewHost = useMemo<ViewHost | undefined>(() => {
    const host = container instanceof ShadowRoot ? container.host : container;
    if (!(host instanceof HTMLElement)) return undefined;
    const tag = tagViewHost(host);
    return {
      ...tag,
      open(request) {
        if (request.to !== 'account') return tag.open(request);
        const here = env().location();
        const to = here && request.screen !== 'home' ? accountScreenHref(here.href, request.screen) : undefined;
        if (to !== undefined && to !== here?.href) {
          if (request.replace) env().replaceUrl(to);
          else env().pushUrl(to);
          setPath(pagePath());
        }
        // The view switches itself either way.
        return true;
      },
    };
  }, [container]);
  return { screen: accountScreenOf(path), viewHost };
}
