/**
 * The generic content page: a channel page (`GET pages/{alias}`) with its blocks, for the channel routes added
 * from the pages list and for /about, /privacy_policy and /terms_conditions when the channel has a page at that
 * path. Without one, about shows the channel's name and contact details, privacy and terms say the channel has
 * not published them yet. A channel page the API does not have is the 404. Also exports the pieces the other
 * content pages share (blocks, contact details, the error panel).
 */
import { useStore } from '../../ui/use-store.js';
import { useEffect, useMemo, type ReactNode } from 'react';
import type { Page } from '../../../api/site-schemas.js';
import type { PageBlock } from '../../../api/content-schemas.js';
import { normalisePath, type RouteName } from '../../../lib/routes.js';
import { $settings } from '../../../stores/session.js';
import { $page, loadPage, pageAlias } from '../../../stores/site/content.js';
import { contactDetails, resolveStaticBlock, type StaticValue } from '../../../stores/site/static-blocks.js';
import { errorText } from '../../ui/messages.js';
import { NamespaceReady } from '../../ui/namespace.js';
import { LoadingPanel } from '../../ui/panels.js';
import { useElement } from '../../ui/shell.js';
import { safeUrl } from '../links.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';
import { contentCss } from './content-styles.js';
import { sanitizeHtml, useSanitizedHtml } from './html.js';
import { addBundledTexts } from '../../../i18n/index.js';
import { sitePagesEn } from '../../../i18n/site-pages-en.js';

// The content pages' English texts travel with them, not in the site's first texts: added as this module (which the
// FAQ and the contacts page import too) is evaluated.
addBundledTexts('en', sitePagesEn, 'site');

/** The fixed routes this page also shows, and the title key of each. */
const FIXED: Partial<Record<RouteName, 'about' | 'privacyPolicy' | 'termsConditions'>> = {
  about: 'about',
  privacyPolicy: 'privacyPolicy',
  termsConditions: 'termsConditions',
};

/** The channel page listed at `path` (its url, without query or fragment). */
function listedAt(pages: readonly Page[], path: string): Page | undefined {
  return pages.find((page) => normalisePath(page.url.split(/[?#]/)[0] ?? '') === path);
}

/** A settings text as it shows: an email as a mail link, a web address as an external link, else text. */
export function StaticText(props: { value: StaticValue }): ReactNode {
  const { t } = useElement();
  const { value, kind } = props.value;
  if (kind === 'email') return <a href={`mailto:${value}`}>{value}</a>;
  if (kind === 'url') {
    return (
      <a href={value} target="_blank" rel="noopener noreferrer">
        {value}
        <span className="sr-only"> {t('site:content.newTab')}</span>
      </a>
    );
  }
  return value;
}

/** A failure with its explanation and a Retry button. */
export function ErrorPanel(props: { title: string; error: unknown; retry(): void }): ReactNode {
  const { t } = useElement();
  return (
    <div className="panel error" role="alert" part="error">
      <p>{props.title}</p>
      <p className="detail">{errorText(props.error, t)}</p>
      <button type="button" className="btn" onClick={props.retry}>
        {t('site:content.retry')}
      </button>
    </div>
  );
}

/** The frame of every content page: its styles, then its heading, then its body. */
export function PageFrame(props: { title: string; children: ReactNode }): ReactNode {
  useSiteStyles(contentCss);
  return (
    <div className="content-page" part="page">
      <PageHeading title={props.title} />
      {props.children}
    </div>
  );
}

/** The channel's contact details (`static_blocks.contacts`), or nothing when it has none. */
export function ContactDetails(props: { heading?: boolean }): ReactNode {
  const { t } = useElement();
  const details = contactDetails(useStore($settings));
  if (!details.length) return null;
  const label = (key: string) =>
    key === 'email' || key === 'phone' || key === 'address' ? t(`site:content.${key}`) : key;
  return (
    <section aria-labelledby="contact-details" part="contact-details">
      <h2 id="contact-details" className={props.heading === false ? 'sr-only' : undefined}>
        {t('site:content.contactDetails')}
      </h2>
      <dl className="details">
        {details.map(([key, value]) => (
          <div key={key}>
            <dt>{label(key)}</dt>
            <dd>
              {key === 'phone' ? (
                <a href={`tel:${value.value.replace(/[^\d+]/g, '')}`}>{value.value}</a>
              ) : (
                <StaticText value={value} />
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A paragraph block: its sanitized HTML. */
function Paragraph(props: { html: string }): ReactNode {
  const ref = useSanitizedHtml<HTMLDivElement>(props.html);
  return <div className="block paragraph" ref={ref} />;
}

function Block(props: { block: PageBlock }): ReactNode {
  const { block } = props;
  const site = useSite();
  const settings = useStore($settings);
  const html = useMemo(
    () => (block.type === 'paragraph' ? sanitizeHtml(block.html, { href: site.href }) : ''),
    [block, site],
  );
  switch (block.type) {
    case 'paragraph':
      // The sanitized string only (see html.ts): never the API's HTML itself.
      return <Paragraph html={html} />;
    case 'image':
      return safeUrl(block.url) ? (
        <img className="block image" src={block.url} alt={block.alt} loading="lazy" part="image" />
      ) : null;
    case 'static-block': {
      const value = resolveStaticBlock(block.ref, settings);
      return value ? (
        <p className="block static">
          <StaticText value={value} />
        </p>
      ) : null;
    }
  }
}

/** A channel page's blocks, in order. */
export function PageBlocks(props: { blocks: readonly PageBlock[] }): ReactNode {
  return (
    <div className="blocks" part="content">
      {props.blocks.map((block, i) => (
        <Block key={i} block={block} />
      ))}
    </div>
  );
}

/** What a fixed route shows when the channel has no page for it. */
function Fallback(props: { kind: 'about' | 'privacyPolicy' | 'termsConditions' }): ReactNode {
  const { t } = useElement();
  const settings = useStore($settings);
  if (props.kind !== 'about') return <p part="not-published">{t(`site:content.${props.kind}`)}</p>;
  const hasDetails = contactDetails(settings).length > 0;
  return (
    <>
      {settings?.name ? <p className="lead">{settings.name}</p> : null}
      <ContactDetails />
      {!settings?.name && !hasDetails ? <p part="not-published">{t('site:content.aboutEmpty')}</p> : null}
    </>
  );
}

function ContentBody(): ReactNode {
  const site = useSite();
  const { t } = useElement();
  const { route } = site;
  const fixed = FIXED[route.name as RouteName];
  const listed = listedAt(site.pages, route.path);
  // A channel route always has a page; a fixed route has one only when the channel lists a page at its path.
  const alias = route.name === 'page' || listed ? pageAlias(listed?.url.split(/[?#]/)[0] ?? route.path) : undefined;
  const state = useStore($page(alias ?? ''));

  useEffect(() => {
    if (alias) void loadPage(alias);
  }, [alias]);

  const missing = state.status === 'ready' && state.value === null;
  useEffect(() => {
    if (missing && !fixed) site.navigate('/404', { replace: true });
  }, [missing, fixed, site]);

  const routeTitle = fixed ? t(`site:titles.${fixed}`) : route.name === 'page' ? route.page.name : '';
  const detail = state.status === 'ready' ? state.value : null;
  const title = listed?.alt_name || detail?.name || listed?.name || routeTitle;

  let body: ReactNode;
  if (!alias || missing) body = fixed ? <Fallback kind={fixed} /> : null;
  else if (state.status === 'error')
    body = <ErrorPanel title={t('site:content.error')} error={state.error} retry={() => void loadPage(alias)} />;
  else if (detail) body = <PageBlocks blocks={detail.blocks} />;
  else body = <LoadingPanel text={t('site:content.loading')} />;
  return <PageFrame title={title}>{body}</PageFrame>;
}

/** The content page of a channel route, /about, /privacy_policy or /terms_conditions. */
export default function ContentPage(): ReactNode {
  return (
    <NamespaceReady ns="site">
      <ContentBody />
    </NamespaceReady>
  );
}
