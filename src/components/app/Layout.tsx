/**
 * The site's layout around every page but /watch_embed: the header (the channel's name or logo, the menu from
 * `GET menu` with its school entries, the account entry and the language switch; on narrow screens the menu folds
 * into a disclosure button) and the footer (information pages and the channel's static blocks).
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { MenuItem } from '../../api/site-schemas.js';
import { ChannelLogoutEvent } from '../../events/account.js';
import { LANGUAGES, type Lang } from '../../lib/lang.js';
import { staticValue } from '../../stores/site/static-blocks.js';
import { chooseLanguage } from '../../stores/site/startup.js';
import { $settings, $user } from '../../stores/session.js';
import { logout } from '../../stores/sign-in.js';
import { useElement } from '../ui/context.js';
import { useViewHost } from '../ui/view.js';
import { channelLink, safeUrl } from './links.js';
import { useSite } from './site.js';

/** Language names in their own language (the switch reads the same whatever the page's language). */
const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', fr: 'Français' };

/** A link of the menu or footer: a site path through the site's href; an http(s) address leaves the site. */
function MenuLink(props: { url: string; children: ReactNode; current?: boolean }): ReactNode {
  const { href } = useSite();
  const link = channelLink(props.url);
  if (!link) return <span>{props.children}</span>;
  if (link.external)
    return (
      <a href={link.href} target="_blank" rel="noopener noreferrer">
        {props.children}
      </a>
    );
  return (
    <a href={href(link.href)} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}

/** The home path of a school's entry: its alias as `group`, or its name when it has none. */
export function groupPath(item: { alias?: string | null | undefined; name: string }): string {
  return `/?${new URLSearchParams({ group: item.alias || item.name }).toString()}`;
}

function Icon(props: { src: string | null | undefined }): ReactNode {
  const src = safeUrl(props.src);
  return src ? <img className="menu-icon" src={src} alt="" width={20} height={20} loading="lazy" /> : null;
}

/** One entry of the menu: a link, or a school group opening its list. */
function Entry(props: { item: MenuItem; currentPath: string }): ReactNode {
  const { item, currentPath } = props;
  const [open, setOpen] = useState(false);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const { route } = useSite();
  useEffect(() => setOpen(false), [route]);
  if (item.type === 'group' && item.items?.length) {
    return (
      <li
        className="group"
        part="menu-group"
        // Escape anywhere in the list closes it and gives focus back to its button; leaving it closes it too.
        onKeyDown={(e) => {
          if (e.key !== 'Escape' || !open) return;
          e.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
        }}
      >
        <button ref={button} type="button" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
          <Icon src={item.custom_icon} />
          {item.name}
        </button>
        <ul id={listId} hidden={!open} className="submenu">
          {item.items.map((child) => (
            <li key={child.id}>
              <MenuLink url={child.url || groupPath(child)}>
                <Icon src={child.custom_icon} />
                {child.name}
              </MenuLink>
            </li>
          ))}
        </ul>
      </li>
    );
  }
  const url = item.url || (item.type === 'group' || item.alias ? groupPath(item) : undefined);
  if (!url) return null;
  return (
    <li part="menu-item">
      <MenuLink url={url} current={url === currentPath}>
        <Icon src={item.custom_icon} />
        {item.name}
      </MenuLink>
    </li>
  );
}

/** The site's header. */
export function Header(): ReactNode {
  const { t, lang } = useElement();
  const site = useSite();
  const settings = useStore($settings);
  const user = useStore($user);
  const { emit } = useViewHost();
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => setMenuOpen(false), [site.route]);
  const name = settings?.name ?? '';
  const logo = safeUrl(settings?.logo);

  return (
    <header
      className="site-header"
      part="header"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !menuOpen) return;
        setMenuOpen(false);
        toggle.current?.focus();
      }}
    >
      <a className="brand" href={site.href('/')} part="brand" aria-label={t('site:layout.home', { name })}>
        {logo ? <img src={logo} alt="" height={36} /> : null}
        <span className="brand-name">{name}</span>
      </a>
      <button
        ref={toggle}
        type="button"
        className="menu-toggle"
        part="menu-button"
        aria-expanded={menuOpen}
        aria-controls={navId}
        onClick={() => setMenuOpen(!menuOpen)}
      >
        <span aria-hidden="true">☰</span> {t('site:layout.menu')}
      </button>
      <div id={navId} className={menuOpen ? 'header-menu open' : 'header-menu'} part="header-menu">
        <nav aria-label={t('site:layout.mainMenu')} part="nav">
          <ul className="menu">
            {site.menu.map((item) => (
              <Entry key={item.id} item={item} currentPath={site.route.path} />
            ))}
          </ul>
        </nav>
        <div className="account" part="account">
          {user ? (
            <>
              <a href={site.href('/profile')} part="account-link">
                {[user.first_name, user.last_name].filter(Boolean).join(' ') || user.email}
              </a>
              <button
                type="button"
                className="link"
                part="sign-out"
                onClick={() => {
                  void logout().then(() => {
                    emit(new ChannelLogoutEvent());
                    site.navigate('/');
                  });
                }}
              >
                {t('site:layout.signOut')}
              </button>
            </>
          ) : (
            <a href={site.href('/login')} className="btn" part="sign-in">
              {t('site:layout.signIn')}
            </a>
          )}
          <label className="language" part="language">
            <span className="sr-only">{t('site:layout.language')}</span>
            <select value={lang} onChange={(e) => chooseLanguage(e.target.value as Lang)}>
              {LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
    </header>
  );
}

/** Information pages every site links to from its footer. */
const FOOTER_LINKS = [
  ['/about', 'about'],
  ['/contacts', 'contacts'],
  ['/faq', 'faq'],
  ['/privacy_policy', 'privacyPolicy'],
  ['/terms_conditions', 'termsConditions'],
] as const;

/** One value of a static block: an email as a mail link, an http(s) URL as a short link, anything else as text. */
function FooterValue(props: { value: string }): ReactNode {
  const { value, kind } = staticValue(props.value);
  if (kind === 'email') return <a href={`mailto:${value}`}>{value}</a>;
  if (kind === 'url')
    return (
      <a href={value} target="_blank" rel="noopener noreferrer">
        {value.replace(/^https?:\/\/(www\.)?/i, '')}
      </a>
    );
  return <>{props.value}</>;
}

/** The site's footer. */
export function Footer(): ReactNode {
  const { t } = useElement();
  const { href } = useSite();
  const settings = useStore($settings);
  const blocks = Object.entries(settings?.static_blocks ?? {});
  return (
    <footer className="site-footer" part="footer">
      <nav aria-label={t('site:layout.footer')}>
        <ul className="footer-links">
          {FOOTER_LINKS.map(([path, title]) => (
            <li key={path}>
              <a href={href(path)}>{t(`site:titles.${title}`)}</a>
            </li>
          ))}
        </ul>
      </nav>
      {blocks.map(([group, values]) => (
        <ul key={group} className="static-block" part="static-block" data-group={group}>
          {Object.entries(values).map(([key, value]) => (
            <li key={key}>
              <FooterValue value={value} />
            </li>
          ))}
        </ul>
      ))}
    </footer>
  );
}
