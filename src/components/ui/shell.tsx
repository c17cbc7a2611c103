/**
 * The frame of every element: styles and channel colours adopted into its shadow root, its language, the
 * configuration error, the start-up loader and the start-up error screen with its Reload countdown.
 * Each element is its own React root, so this context never crosses tags; what they share lives in stores.
 */
import { useStore } from './use-store.js';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { $languages, loadNamespace, translator } from '../../i18n/index.js';
import { colorDeclarations } from '../../lib/colors.js';
import { elementLang } from '../../lib/lang.js';
import { $config, $configError, type Lang } from '../../stores/config.js';
import {
  $apiKeyError,
  $colors,
  $settings,
  $startup,
  RELOAD_COUNTDOWN_MS,
  reloadSession,
  startSession,
} from '../../stores/session.js';
import { env } from '../../lib/env.js';
import { errorText } from './messages.js';
import { LoadingPanel } from './panels.js';
import { ElementContext, StylesContext, useElement, type ElementInfo, type StylesHost } from './context.js';

export { useElement, type ElementInfo } from './context.js';
import { adopt, baseCss } from './styles.js';
import { tagViewHost, ViewHostProvider, type ViewHost } from './view.js';
import { ErrorBoundary } from './boundary.js';

/** The language of an element (lib/lang.ts `elementLang`), the script's `data-lang` being the page's choice. */
export function resolveLang(host: HTMLElement, ownLang: string | undefined, channelLang: string | undefined): Lang {
  return elementLang(host, ownLang, $config.get()?.lang, channelLang);
}

/** Props every element component receives from r2wc. */
export interface ShellProps {
  container?: ShadowRoot | HTMLElement;
  lang?: string;
}

/** Wraps an element's content; renders it only once the session is ready. */
export function ElementShell(props: {
  container: ShellProps['container'];
  lang: string | undefined;
  /**
   * The element's language from the channel's (default: a single element's rule, `resolveLang`, with `lang` as the
   * element's own); the site has a rule of its own (lib/lang.ts `siteLang`).
   */
  langOf?: ((host: HTMLElement, channelLang: string | undefined) => Lang) | undefined;
  /** The element's CSS: one text, or several (each becomes its own cached sheet, as a site's pages add theirs). */
  css: string | readonly string[];
  /** The capabilities the views get (default: the tag's answers, public events from the element). */
  viewHost?: ViewHost | undefined;
  /** What the start-up error's Reload does (default: a new api key and the session's start-up again). */
  onReload?: (() => Promise<void>) | undefined;
  children: (info: ElementInfo) => ReactNode;
}): ReactNode {
  const { container, css } = props;
  const root = container instanceof ShadowRoot ? container : undefined;
  const host = (root?.host ?? container) as HTMLElement;
  const viewHost = useMemo(() => props.viewHost ?? tagViewHost(host), [props.viewHost, host]);
  const config = useStore($config);
  const configError = useStore($configError);
  const startup = useStore($startup);
  const settings = useStore($settings);
  const colors = useStore($colors);

  const wanted = props.langOf
    ? props.langOf(host, settings?.language)
    : resolveLang(host, props.lang, settings?.language);
  const wantedReady = useStore($languages).includes(wanted);
  // While another language's texts load, the element goes on in the one it shows (a playing video is not restarted).
  const shown = useRef<Lang | undefined>(undefined);
  if (wantedReady) shown.current = wanted;
  const lang = wantedReady ? wanted : (shown.current ?? wanted);
  const langReady = wantedReady || shown.current !== undefined;
  const info = useMemo<ElementInfo>(
    () => ({ lang, t: translator(lang), currency: settings?.currency ?? 'USD' }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `langReady` on purpose: the texts arriving give the same lang a working translator
    [lang, settings?.currency, langReady],
  );
  useEffect(() => {
    if (!wantedReady) void loadNamespace(wanted, 'translation');
  }, [wanted, wantedReady]);

  // The sheets: the element's own, then those its parts add while shown (`useStyles`), then the channel's colours.
  // Adopted before the browser paints, so nothing shows unstyled for a frame.
  const sheets = useRef<{ root?: ShadowRoot | undefined; own: string[]; added: string[]; colors: string }>({
    own: [],
    added: [],
    colors: '',
  });
  const styles = useMemo(() => {
    const readopt = () => {
      const { root: into, own, added, colors: colorCss } = sheets.current;
      if (into && own.length) adopt(into, [...new Set([...own, ...added]), colorCss]);
    };
    const host: StylesHost = {
      add(sheet) {
        sheets.current.added.push(sheet);
        readopt();
        return () => {
          const { added } = sheets.current;
          const at = added.indexOf(sheet);
          if (at >= 0) added.splice(at, 1);
          readopt();
        };
      },
    };
    return { host, readopt };
  }, []);
  useLayoutEffect(() => {
    sheets.current.root = root;
    sheets.current.own = [baseCss, ...(typeof css === 'string' ? [css] : css)];
    sheets.current.colors = colors ? `:host {\n${colorDeclarations(colors)}\n}` : '';
    styles.readopt();
  }, [root, css, colors, styles]);

  useEffect(() => {
    if (config && startup.status === 'idle') void startSession();
  }, [config, startup.status]);

  // A player's early video is released (src/lib/early-video.ts) where the element shows an error instead of its view.
  const failed = !config || startup.status === 'error';
  useEffect(() => {
    if (failed) viewHost.media?.dropEarlyVideo?.();
  }, [failed, viewHost]);

  let body: ReactNode;
  if (!config) {
    body = (
      <div className="panel error" role="alert" part="error">
        <p>{info.t('errors.config')}</p>
        {configError ? <p className="detail">{configError.replace(/^channel-elements: /, '')}</p> : null}
      </div>
    );
  } else if (startup.status === 'error') {
    body = <StartupError message={errorText(startup.error, info.t)} onReload={props.onReload ?? reloadSession} />;
  } else if (startup.status !== 'ready' || !langReady) {
    body = <LoadingPanel text={info.t('common.loading')} />;
  } else {
    // A render error or a chunk that did not load shows a panel with Retry, never a blank element.
    body = (
      <ErrorBoundary tag={host.localName} onError={() => viewHost.media?.dropEarlyVideo?.()}>
        {props.children(info)}
      </ErrorBoundary>
    );
  }
  return (
    <ElementContext.Provider value={info}>
      <StylesContext.Provider value={styles.host}>
        <ViewHostProvider value={viewHost}>
          <div lang={lang} className="frame" part="frame">
            {body}
          </div>
        </ViewHostProvider>
      </StylesContext.Provider>
    </ElementContext.Provider>
  );
}

/** The start-up error screen with its 60 s countdown while an api-key error is active. */
export function StartupError(props: { message: string; onReload: () => Promise<void> }): ReactNode {
  const info = useElement();
  const { message } = props;
  const keyError = useStore($apiKeyError);
  const remaining = () => (keyError ? Math.max(0, keyError.at + RELOAD_COUNTDOWN_MS - env().now()) : 0);
  const [left, setLeft] = useState(remaining);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setLeft(remaining());
    if (!keyError) return;
    let timer: unknown;
    const tick = () => {
      const ms = remaining();
      setLeft(ms);
      if (ms > 0) timer = env().setTimeout(tick, 1000);
    };
    timer = env().setTimeout(tick, 1000);
    return () => env().clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `remaining` is made anew each render; the countdown restarts only with a new key error
  }, [keyError]);

  const seconds = Math.ceil(left / 1000);
  return (
    <div className="panel error" role="alert" part="error">
      <p>{info.t('errors.startup')}</p>
      {/* A server failure's own line would only repeat the headline's technical difficulties. */}
      {message === info.t('errors.technical') ? null : <p className="detail">{message}</p>}
      <button
        type="button"
        className="btn"
        part="button"
        disabled={seconds > 0 || busy}
        onClick={() => {
          setBusy(true);
          void props.onReload().finally(() => setBusy(false));
        }}
      >
        {info.t('common.reload')}
      </button>
      {seconds > 0 ? (
        <p className="detail" aria-live="polite">
          {info.t('common.reloadIn', { seconds })}
        </p>
      ) : null}
    </div>
  );
}

/** A "coming soon" placeholder for elements not built yet. */
export function ComingSoon({ name }: { name: string }): ReactNode {
  const { t } = useElement();
  return (
    <div className="panel" part="placeholder">
      <p>{t('common.comingSoon', { name: t(name) })}</p>
    </div>
  );
}

/** The toast list of an element. */
export function ToastList({
  toasts,
  onDismiss,
}: {
  toasts: { id: number; text: string; type: string }[];
  onDismiss: (id: number) => void;
}): ReactNode {
  const { t } = useElement();
  return (
    <div className="toasts" role="status" aria-live="polite" part="toasts">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast ${toast.type}`} part="toast">
          <span>{toast.text}</span>
          <button type="button" aria-label={t('common.dismiss')} onClick={() => onDismiss(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
