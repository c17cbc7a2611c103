/**
 * The signed-in profile: a header with the greeting and Sign out, the verify banner, the section tabs and the
 * open section. Choosing a tab asks the view host to open that section; the tag leaves it to the view, which
 * then switches itself, while a site's router navigates and hands the new section back through the options.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { User } from '../../api/channel-schemas.js';
import { $settings } from '../../stores/session.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';
import { ResendButton } from './auth.js';
import { EditSection } from './Edit.js';
import { FavouritesPanel } from './FavouritesPanel.js';
import { SignOutButton, StepHeading } from './form.js';
import { PROFILE_SECTIONS, type ProfileSection } from './options.js';
import { ClipsSection } from './ClipsSection.js';
import { DevicesSection, OrdersSection, TransactionsSection } from './sections.js';

const k = (key: string) => `forms:account.${key}`;

/** The signed-in profile: header, tabs and the open section (only the edit section with a temporary password). */
export function SignedIn(props: { user: User; section: ProfileSection; onSignOut(): Promise<void> }): ReactNode {
  const { t } = useElement();
  const { user } = props;
  const settings = useStore($settings);
  const remote = Boolean(settings?.auth.remote_auth);
  const sections = PROFILE_SECTIONS.filter((s) => s !== 'devices' || remote);
  // Without remote auth the devices section is the orders section.
  const wanted: ProfileSection = props.section === 'devices' && !remote ? 'orders' : props.section;
  const [tab, setTab] = useState<ProfileSection>(wanted);
  useEffect(() => setTab(wanted), [wanted]);
  const viewHost = useViewHost();
  // True from the tag's host (nobody else answers): the view switches itself. A router answers false and
  // navigates; the new section then comes back as `section`.
  const select = (section: ProfileSection) => {
    if (viewHost.open({ to: 'profile', section })) setTab(section);
  };
  const locked = user.temporary_password;
  // A temporary password keeps the edit section open after it is saved, so its message stays in view.
  useEffect(() => {
    if (locked) setTab('edit');
  }, [locked]);
  const current = locked ? 'edit' : tab;
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
        <SignOutButton
          label={t(k('header.signOut'))}
          className="btn secondary"
          part="sign-out"
          onSignOut={props.onSignOut}
        />
      </header>
      {user.email_verified !== false ? null : (
        <div className="banner" part="message verify-banner">
          <p>{t(k('verifyNotice.banner'), { email: user.email })}</p>
          <ResendButton />
        </div>
      )}
      {locked ? null : <Tabs sections={sections} current={current} onSelect={select} tabId={tabId} panelId={panelId} />}
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
        ? at >= last
          ? 0
          : at + 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? at <= 0
            ? last
            : at - 1
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
