/**
 * `<channel-profile>`: sign-in and registration for a guest; for a signed-in viewer a header with Sign out and
 * the sections (orders, transactions, clips, favourites, devices, edit) as tabs. On the pages of emailed links
 * and social callbacks it runs that flow first. The logic lives in the account and session stores; every
 * element follows the shared user, so a sign-in here unlocks players and schedules on the page at once.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { User } from '../../api/contract.js';
import { ChannelLoginEvent, ChannelLogoutEvent, type LoginMethod } from '../../events/index.js';
import { env } from '../../env.js';
import { loadForms } from '../../i18n/index.js';
import { parseAccountRoute, withoutOneTimeParams, type AccountRoute } from '../../lib/account-routes.js';
import { navigation, signOut } from '../../stores/account.js';
import type { Lang } from '../../stores/config.js';
import { $settings, $token, $user, identified } from '../../stores/session.js';
import { ElementShell, useElement, type ShellProps } from '../ui/shell.js';
import { PROFILE_PROPS, PROFILE_SECTIONS, parseProfileProps, type ProfileProps, type ProfileSection } from './attributes.js';
import {
  ConfirmDeletion,
  PasswordReset,
  Register,
  ResendButton,
  ResetRequest,
  SignIn,
  SocialCallback,
  VerifyEmail,
  VerifyNotice,
  type GuestView,
} from './auth.js';
import { EditSection } from './Edit.js';
import { dialogCss } from '../checkout/styles.js';
import { FavouritesPanel, favouritesCss } from './FavouritesPanel.js';
import { StepFocus, StepHeading } from './form.js';
import { ClipsSection, DevicesSection, OrdersSection, TransactionsSection } from './sections.js';
import { profileCss } from './styles.js';

const k = (key: string) => `forms:account.${key}`;
/** The element's sheet: its own styles and the favourites panel's. */
const css = profileCss + favouritesCss + dialogCss;

/** The element's root component. */
export function Profile(props: ProfileProps & ShellProps): ReactNode {
  return (
    <ElementShell container={props.container} lang={props.lang} css={css}>
      {() => (
        <FormsReady>
          <ProfileBody {...props} />
        </FormsReady>
      )}
    </ElementShell>
  );
}

const formsLoaded = new Set<Lang>();

/** Renders its children once the `forms` texts of the element's language are in. */
function FormsReady(props: { children: ReactNode }): ReactNode {
  const { lang, t } = useElement();
  const [, setLoaded] = useState(0);
  useEffect(() => {
    if (formsLoaded.has(lang)) return;
    let live = true;
    void loadForms(lang).then(() => {
      formsLoaded.add(lang);
      if (live) setLoaded((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [lang]);
  if (!formsLoaded.has(lang)) {
    return (
      <div className="panel" role="status" part="loading">
        <p>{t('common.loading')}</p>
      </div>
    );
  }
  return props.children;
}

/** What the element shows: a guest step, the page of a one-time link, the verify notice, or the profile. */
type View = GuestView | { name: 'route'; route: AccountRoute } | { name: 'verify-notice' } | { name: 'home' };

/** The one-time link of this page, if any (read once, when the element first renders). */
function pageRoute(): AccountRoute | undefined {
  return typeof location === 'undefined' ? undefined : parseAccountRoute(location.href);
}

function ProfileBody(props: ProfileProps): ReactNode {
  const { t, host } = useElement();
  const propsKey = JSON.stringify(PROFILE_PROPS.map((name) => props[name]));
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const { section, notices } = useMemo(() => parseProfileProps(props), [propsKey]);
  const noticeKey = notices.map((n) => `${n.name}=${n.value}`).join('|');
  useEffect(() => {
    for (const n of notices) env().logger.warn(`<channel-profile>: ignored ${n.name}="${n.value}"; expected ${n.expected}.`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [noticeKey]);

  const user = useStore($user);
  const token = useStore($token);
  const moved = useRef(false);
  const [view, setView] = useState<View>(() => {
    const route = pageRoute();
    return route ? { name: 'route', route } : { name: 'home' };
  });
  const [emailFocus, setEmailFocus] = useState(0);

  // The one-time values leave the address bar as soon as they are read.
  useEffect(() => {
    if (view.name === 'route') history.replaceState(history.state, '', withoutOneTimeParams(location.href, view.route));
    // Once, on the first render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
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

  /** Changes the view on the viewer's action: the new step's heading takes focus. */
  const go = (next: View) => {
    moved.current = true;
    setView(next);
  };

  // Another element asks for a sign-in (a guest pressed "Sign in to watch"): show it, scroll, focus the email.
  useEffect(() => {
    const onRequest = () => {
      if ($user.get()) return;
      setView({ name: 'sign-in' });
      setEmailFocus((n) => n + 1);
      host.scrollIntoView({ block: 'start' });
    };
    document.addEventListener('channel-login-request', onRequest);
    return () => document.removeEventListener('channel-login-request', onRequest);
  }, [host]);

  const signedIn = (method: LoginMethod) => {
    host.dispatchEvent(new ChannelLoginEvent({ method }));
  };
  const signedOut = () => {
    host.dispatchEvent(new ChannelLogoutEvent());
  };

  let body: ReactNode;
  if (view.name === 'route') {
    const home = () => go({ name: 'home' });
    const guest = (next: GuestView) => go(next);
    switch (view.route.kind) {
      case 'verify-email':
        body = <VerifyEmail route={view.route} onContinue={home} />;
        break;
      case 'password-reset':
        body = <PasswordReset route={view.route} go={guest} />;
        break;
      case 'confirm-deletion':
        body = <ConfirmDeletion route={view.route} onDeleted={(out) => out && signedOut()} onContinue={home} />;
        break;
      case 'social-callback': {
        const provider = view.route.provider;
        body = (
          <SocialCallback
            route={view.route}
            go={guest}
            onSignedIn={(returnTo) => {
              signedIn(provider);
              if (returnTo) navigation.assign(returnTo);
              else go({ name: 'home' });
            }}
          />
        );
        break;
      }
    }
  } else if (!user && token && !known) {
    body = (
      <div className="panel" role="status" part="loading">
        <p>{t(k('loading'))}</p>
      </div>
    );
  } else if (!user) {
    const guest = view.name === 'register' || view.name === 'reset-request' || view.name === 'sign-in' ? view : { name: 'sign-in' as const };
    body =
      guest.name === 'register' ? (
        <Register
          key="register"
          go={go}
          onRegistered={() => {
            signedIn('register');
            go({ name: 'verify-notice' });
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
  } else if ((view.name === 'verify-notice' || view.name === 'register') && !user.email_verified) {
    // Registration signs in before its form hears back: the notice shows from that moment.
    body = <VerifyNotice email={user.email} onContinue={() => go({ name: 'home' })} />;
  } else {
    body = (
      <SignedIn
        user={user}
        section={section}
        onSignOut={async () => {
          // The user is gone before sign-out finishes (the fresh key comes after): the sign-in heading takes focus.
          moved.current = true;
          await signOut();
          signedOut();
          go({ name: 'sign-in' });
        }}
      />
    );
  }

  return (
    <StepFocus.Provider value={moved}>
      <section className="profile" aria-label={t(k('label'))} part="profile">
        {notices.map((n) => (
          <p className="notice" key={n.name} part="notice">
            {t('errors.badAttribute', { name: n.name, value: n.value, expected: n.expected })}
          </p>
        ))}
        {body}
      </section>
    </StepFocus.Provider>
  );
}

/** The signed-in profile: header, tabs and the open section (only the edit section with a temporary password). */
function SignedIn(props: { user: User; section: ProfileSection; onSignOut(): Promise<void> }): ReactNode {
  const { t } = useElement();
  const { user } = props;
  const settings = useStore($settings);
  const remote = Boolean(settings?.auth.remote_auth);
  const sections = PROFILE_SECTIONS.filter((s) => s !== 'devices' || remote);
  // Without remote auth the devices section is the orders section (spec section 2).
  const wanted: ProfileSection = props.section === 'devices' && !remote ? 'orders' : props.section;
  const [tab, setTab] = useState<ProfileSection>(wanted);
  useEffect(() => setTab(wanted), [wanted]);
  const locked = user.temporary_password;
  // A temporary password keeps the edit section open after it is saved, so its message stays in view.
  useEffect(() => {
    if (locked) setTab('edit');
  }, [locked]);
  const current = locked ? 'edit' : tab;
  const [leaving, setLeaving] = useState(false);
  const ids = useId();
  const titleId = `${ids}-title`;
  const tabId = (s: ProfileSection) => `${ids}-tab-${s}`;
  const panelId = `${ids}-panel`;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;

  return (
    <>
      <header className="head" part="header">
        <div>
          <StepHeading id={titleId}>{t(k('header.greeting'), { name })}</StepHeading>
          <p className="detail">{user.email}</p>
        </div>
        <button
          type="button"
          className="btn secondary"
          part="sign-out"
          disabled={leaving}
          onClick={() => {
            setLeaving(true);
            void props.onSignOut().finally(() => setLeaving(false));
          }}
        >
          {leaving ? t(k('header.signingOut')) : t(k('header.signOut'))}
        </button>
      </header>
      {user.email_verified ? null : (
        <div className="banner" part="message verify-banner">
          <p>{t(k('verifyNotice.banner'), { email: user.email })}</p>
          <ResendButton />
        </div>
      )}
      {locked ? null : <Tabs sections={sections} current={current} onSelect={setTab} tabId={tabId} panelId={panelId} />}
      <div
        className="tab-panel"
        role={locked ? undefined : 'tabpanel'}
        id={panelId}
        aria-labelledby={locked ? undefined : tabId(current)}
        tabIndex={locked ? undefined : 0}
        part="panel"
      >
        {current === 'orders' ? (
          <OrdersSection key="orders" />
        ) : current === 'transactions' ? (
          <TransactionsSection key="transactions" />
        ) : current === 'clips' ? (
          <ClipsSection key="clips" />
        ) : current === 'favourites' ? (
          <div className="section" part="favourites-section">
            <FavouritesPanel key="favourites" />
          </div>
        ) : current === 'devices' ? (
          <DevicesSection key="devices" />
        ) : (
          <EditSection key={`edit-${user.id}`} user={user} locked={locked} />
        )}
      </div>
    </>
  );
}

/** The section tabs: arrow keys, Home and End move between them (and open them: automatic activation). */
function Tabs(props: {
  sections: readonly ProfileSection[];
  current: ProfileSection;
  onSelect(section: ProfileSection): void;
  tabId(section: ProfileSection): string;
  panelId: string;
}): ReactNode {
  const { t } = useElement();
  const list = useRef<HTMLDivElement>(null);
  const { sections, current } = props;
  const onKeyDown = (e: KeyboardEvent) => {
    const at = sections.indexOf(current);
    const last = sections.length - 1;
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? at >= last ? 0 : at + 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? at <= 0 ? last : at - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const section = sections[next]!;
    props.onSelect(section);
    list.current?.querySelector<HTMLElement>(`[data-section="${section}"]`)?.focus();
  };
  return (
    <div ref={list} className="tabs" role="tablist" aria-label={t(k('tabs.label'))} part="tabs" onKeyDown={onKeyDown}>
      {sections.map((section) => {
        const selected = section === current;
        return (
          <button
            key={section}
            type="button"
            role="tab"
            id={props.tabId(section)}
            data-section={section}
            aria-selected={selected}
            aria-controls={props.panelId}
            tabIndex={selected ? 0 : -1}
            className="tab"
            part={selected ? 'tab tab-selected' : 'tab'}
            onClick={() => props.onSelect(section)}
          >
            {t(k(`tabs.${section}`))}
          </button>
        );
      })}
    </div>
  );
}
