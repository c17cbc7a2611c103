/**
 * The profile view: sign-in and registration for a guest; for a signed-in viewer a header with Sign out and the
 * sections as tabs. On the pages of emailed links and social callbacks it runs that flow first (a signed-in
 * viewer's reset link waits for a sign-out). Its screens with an address of their own go to the view host, which
 * keeps the address in step. The logic lives
 * in the account and session stores; every view follows the shared user, so a sign-in here unlocks players and
 * schedules on the page at once. Sign-ins and sign-outs go to the host page as public events through the view
 * host; sign-in requests from other views (and from the host page) come through `$signInRequest`.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { env } from '../../lib/env.js';
import { ChannelLoginEvent, ChannelLogoutEvent, type LoginMethod } from '../../events/account.js';
import { parseAccountRoute, withoutOneTimeParams, type AccountRoute } from '../../lib/account-routes.js';
import { signOut } from '../../stores/account.js';
import { $signInRequest } from '../../stores/host-requests.js';
import { $profileError, $token, $user, identified, retryProfile } from '../../stores/session.js';
import { errorText } from '../ui/messages.js';
import { NamespaceReady } from '../ui/namespace.js';
import type { AttributeNotice } from '../ui/attributes.js';
import { AttributeNotices, LoadingPanel } from '../ui/panels.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';
import { Register, ResetRequest, SignIn, VerifyNotice, type GuestView } from './auth.js';
import { StepFocus } from './form.js';
import { ConfirmDeletion, PasswordReset, ResetWhileSignedIn, SocialCallback, VerifyEmail } from './links.js';
import type { ProfileOptions } from './options.js';
import { SignedIn } from './SignedIn.js';

const k = (key: string) => `forms:account.${key}`;

/** The profile view; `notices` (the tag's ignored attribute values) show first inside it. */
export function ProfileView(props: { options: ProfileOptions; notices?: readonly AttributeNotice[] }): ReactNode {
  return (
    <NamespaceReady ns="forms">
      <ProfileBody options={props.options} notices={props.notices ?? []} />
    </NamespaceReady>
  );
}

/** What the view shows: a guest step, the page of a one-time link, the verify notice, or the profile. */
type Step = GuestView | { name: 'route'; route: AccountRoute } | { name: 'verify-notice' } | { name: 'home' };

/** The step of a guest screen named by the options (none: the profile's home, sign-in for a guest). */
function guestStep(screen: ProfileOptions['guest']): Step {
  return screen ? { name: screen } : { name: 'home' };
}

/** The one-time link of this page, if any (read once, when the view first renders). */
function pageRoute(): AccountRoute | undefined {
  const href = env().location()?.href;
  return href === undefined ? undefined : parseAccountRoute(href);
}

function ProfileBody(props: { options: ProfileOptions; notices: readonly AttributeNotice[] }): ReactNode {
  const { t } = useElement();
  const viewHost = useViewHost();
  const user = useStore($user);
  const token = useStore($token);
  const profileError = useStore($profileError);
  const moved = useRef(false);
  const guestScreen = props.options.guest;
  const [step, setStep] = useState<Step>(() => {
    const route = pageRoute();
    return route ? { name: 'route', route } : guestStep(guestScreen);
  });
  // A site's address names the screen: follow it when it changes (back and forward, a link in the header).
  // An address without a screen (a site's /profile) leaves any guest screen for the profile's home.
  useEffect(() => {
    setStep((now) => (now.name === 'route' || now.name === (guestScreen ?? 'home') ? now : guestStep(guestScreen)));
  }, [guestScreen]);
  const [emailFocus, setEmailFocus] = useState(0);

  // The one-time values leave the address bar as soon as they are read.
  useEffect(() => {
    const href = env().location()?.href;
    if (step.name === 'route' && href !== undefined) env().replaceUrl(withoutOneTimeParams(href, step.route));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the first render: the one-time values leave the address as soon as they are read
  }, []);

  // With a stored token, the profile is on its way: wait for it rather than flash the sign-in form.
  const [known, setKnown] = useState(false);
  useEffect(() => {
    let live = true;
    void identified().then(() => live && setKnown(true));
    return () => {
      live = false;
    };
  }, []);

  /**
   * Changes the step on the viewer's action: the new step's heading takes focus, and the address follows (in place
   * of the current entry with `replace`).
   */
  const go = (next: Step, options: { replace?: boolean } = {}) => {
    moved.current = true;
    setStep(next);
    if (next.name !== 'route') viewHost.open({ to: 'account', screen: next.name, ...options });
  };

  // Another view (or the host page) asks a guest to sign in: show sign-in, bring it into sight, focus the email.
  useEffect(
    () =>
      $signInRequest.listen(() => {
        if ($user.get()) return;
        setStep({ name: 'sign-in' });
        viewHost.open({ to: 'account', screen: 'sign-in' });
        setEmailFocus((n) => n + 1);
        viewHost.reveal();
      }),
    [viewHost],
  );

  // The verification notice is a signed-in viewer's (it names their email): a guest at its address gets sign-in,
  // and the address says so.
  const guestAtNotice = known && !user && step.name === 'verify-notice';
  useEffect(() => {
    if (!guestAtNotice) return;
    setStep({ name: 'sign-in' });
    viewHost.open({ to: 'account', screen: 'sign-in', replace: true });
  }, [guestAtNotice, viewHost]);

  const signedIn = (method: LoginMethod) => viewHost.emit(new ChannelLoginEvent({ method }));
  const signedOut = () => viewHost.emit(new ChannelLogoutEvent());
  /** Signs out here; the next step's heading takes focus (the user is gone before sign-out finishes). */
  const leave = async () => {
    moved.current = true;
    await signOut();
    signedOut();
  };

  let body: ReactNode;
  if (step.name === 'route' && step.route.kind !== 'social-callback' && !user && token && !known) {
    // Whether the link is the signed-in viewer's own decides what its page says: wait for the profile.
    body = <LoadingPanel text={t(k('loading'))} />;
  } else if (step.name === 'route') {
    const home = () => go({ name: 'home' });
    const guest = (next: GuestView) => go(next);
    switch (step.route.kind) {
      case 'verify-email':
        body = <VerifyEmail route={step.route} user={user} onContinue={home} />;
        break;
      case 'password-reset':
        // Auth pages are closed to a signed-in viewer: the link waits while they choose to sign out (or stay).
        body = user ? (
          <ResetWhileSignedIn route={step.route} user={user} onSignOut={leave} onStay={home} />
        ) : (
          <PasswordReset route={step.route} go={guest} />
        );
        break;
      case 'confirm-deletion':
        body = (
          <ConfirmDeletion route={step.route} user={user} onDeleted={(out) => out && signedOut()} onContinue={home} />
        );
        break;
      case 'social-callback': {
        const provider = step.route.provider;
        body = (
          <SocialCallback
            route={step.route}
            go={guest}
            onSignedIn={(returnTo) => {
              signedIn(provider);
              if (returnTo) env().location()?.assign(returnTo);
              else go({ name: 'home' });
            }}
          />
        );
        break;
      }
    }
  } else if (!user && token && !known) {
    body = <LoadingPanel text={t(k('loading'))} />;
  } else if (!user && token && profileError) {
    // The stored sign-in could not be read (the server's trouble): not a sign-in form, which would say it is gone.
    body = <ProfileLoadError error={profileError} />;
  } else if (!user) {
    const guest =
      step.name === 'register' || step.name === 'reset-request' || step.name === 'sign-in'
        ? step
        : { name: 'sign-in' as const };
    body =
      guest.name === 'register' ? (
        <Register
          key="register"
          go={go}
          onRegistered={() => {
            signedIn('register');
            // The notice follows from the registration: Back does not return to the filled-in form.
            go({ name: 'verify-notice' }, { replace: true });
          }}
        />
      ) : guest.name === 'reset-request' ? (
        <ResetRequest key="reset-request" email={guest.email} go={go} />
      ) : (
        <SignIn
          key={`sign-in-${guest.email ?? ''}-${guest.flash?.message.key ?? ''}`}
          email={guest.email}
          flash={guest.flash}
          focusEmail={emailFocus}
          go={go}
          onSignedIn={() => {
            signedIn('password');
            go({ name: 'home' });
          }}
        />
      );
  } else if ((step.name === 'verify-notice' || step.name === 'register') && !user.email_verified) {
    // Registration signs in before its form hears back: the notice shows from that moment.
    body = <VerifyNotice email={user.email} onContinue={() => go({ name: 'home' })} />;
  } else {
    body = (
      <SignedIn
        user={user}
        section={props.options.section}
        onSignOut={async () => {
          await leave();
          go({ name: 'sign-in' });
        }}
      />
    );
  }

  return (
    <StepFocus.Provider value={moved}>
      <section className="profile" aria-label={t(k('label'))} part="profile">
        <AttributeNotices notices={props.notices} />
        {body}
      </section>
    </StepFocus.Provider>
  );
}

/** The stored sign-in's profile could not be loaded: why, and Retry (the sign-in itself is kept). */
function ProfileLoadError(props: { error: unknown }): ReactNode {
  const { t } = useElement();
  const [busy, setBusy] = useState(false);
  return (
    <div className="panel error" role="alert" part="error">
      <p>{t(k('loadError'))}</p>
      <p className="detail">{errorText(props.error, t)}</p>
      <button
        type="button"
        className="btn"
        part="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void retryProfile().finally(() => setBusy(false));
        }}
      >
        {t('common.retry')}
      </button>
    </div>
  );
}
