/**
 * /simulate: the spec names the route without content. It is a "check your device" page a viewer can open before
 * buying: can this browser play the channel's HLS streams (natively, or through Media Source Extensions as the
 * player does with hls.js), does local storage work (sign-in keeps its session there), are cookies on, and the
 * screen size, time zone and language the site will use. Each line says OK, a note or a problem, and why; a
 * summary says whether the device can watch. It reads the browser only: no network calls.
 */
import { useState, type ReactNode } from 'react';
import { NamespaceReady } from '../../ui/namespace.js';
import { useElement } from '../../ui/shell.js';
import { PageHeading, useSiteStyles } from '../site.js';
import { contentCss } from './content-styles.js';
import { addBundledTexts } from '../../../i18n/index.js';
import { simulateEn } from '../../../i18n/simulate-en.js';

// The device check's English texts travel with it, not in the site's first texts: added as this module is evaluated.
addBundledTexts('en', simulateEn, 'site');

/** How one check came out. */
type Level = 'pass' | 'warn' | 'fail';

/** One line of the page: the check's name, its level and its explanation (keys of `site:simulate`). */
interface Check {
  id: string;
  level: Level;
  text: string;
  values?: Record<string, string | number>;
}

/** The codecs of the channel's streams (H.264 baseline and AAC), as the player asks Media Source Extensions. */
const STREAM_CODECS = 'video/mp4; codecs="avc1.42E01E,mp4a.40.2"';

function videoCheck(): Check {
  const native = document.createElement('video').canPlayType('application/vnd.apple.mpegurl') !== '';
  if (native) return { id: 'video', level: 'pass', text: 'native' };
  // Safari on iPhone offers ManagedMediaSource instead of MediaSource; hls.js uses either.
  const scope = window as typeof window & { ManagedMediaSource?: typeof MediaSource };
  const source = scope.ManagedMediaSource ?? scope.MediaSource;
  const mse = typeof source?.isTypeSupported === 'function' && source.isTypeSupported(STREAM_CODECS);
  return mse ? { id: 'video', level: 'pass', text: 'mse' } : { id: 'video', level: 'fail', text: 'fail' };
}

function storageCheck(): Check {
  try {
    // Reading window.localStorage itself throws where storage is blocked, so the whole probe is guarded.
    const storage = window.localStorage;
    const key = 'rudy_simulate_probe';
    storage.setItem(key, '1');
    const works = storage.getItem(key) === '1';
    storage.removeItem(key);
    return { id: 'storage', level: works ? 'pass' : 'fail', text: works ? 'pass' : 'fail' };
  } catch {
    return { id: 'storage', level: 'fail', text: 'fail' };
  }
}

function screenCheck(): Check {
  const width = window.screen.width;
  const height = window.screen.height;
  // 720p needs 1280 × 720; a smaller screen still plays, it just cannot show every pixel.
  const level = Math.max(width, height) >= 1280 && Math.min(width, height) >= 720 ? 'pass' : 'warn';
  return { id: 'screen', level, text: level, values: { width, height } };
}

function timeZoneCheck(): Check {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone
    ? { id: 'timeZone', level: 'pass', text: 'pass', values: { zone } }
    : { id: 'timeZone', level: 'warn', text: 'warn' };
}

function languageCheck(lang: string): Check {
  const preferred = navigator.language || 'en';
  let language = preferred;
  try {
    language = new Intl.DisplayNames([lang], { type: 'language' }).of(preferred) ?? preferred;
  } catch {
    // An unknown language tag: show it as the browser gives it.
  }
  const spoken = /^(en|fr)\b/i.test(preferred);
  return { id: 'language', level: spoken ? 'pass' : 'warn', text: spoken ? 'pass' : 'warn', values: { language } };
}

/** Every check, read from this browser now. */
function runChecks(lang: string): Check[] {
  const cookies: Check = navigator.cookieEnabled
    ? { id: 'cookies', level: 'pass', text: 'pass' }
    : { id: 'cookies', level: 'warn', text: 'warn' };
  return [videoCheck(), storageCheck(), cookies, screenCheck(), timeZoneCheck(), languageCheck(lang)];
}

function SimulateBody(): ReactNode {
  useSiteStyles(contentCss);
  const { t, lang } = useElement();
  const [checks, setChecks] = useState(() => runChecks(lang));
  const overall: Level = checks.some((c) => c.level === 'fail')
    ? 'fail'
    : checks.some((c) => c.level === 'warn')
      ? 'warn'
      : 'pass';
  return (
    // Its own frame rather than Content's PageFrame: importing Content.tsx would load DOMPurify with this page.
    <div className="content-page" part="page">
      <PageHeading title={t('site:titles.simulate')} />
      <p>{t('site:simulate.intro')}</p>
      <p className={`summary ${overall}`} role="status" part="summary">
        {t(`site:simulate.summary.${overall}`)}
      </p>
      <section aria-labelledby="simulate-checked">
        <h2 id="simulate-checked">{t('site:simulate.checked')}</h2>
        <ul className="checks" part="checks">
          {checks.map((check) => (
            <li key={check.id} className={`check ${check.level}`} part={`check ${check.level}`}>
              <span className="verdict">{t(`site:simulate.verdict.${check.level}`)}</span>
              <span className="what">{t(`site:simulate.${check.id}.label`)}</span>
              <span className="why">{t(`site:simulate.${check.id}.${check.text}`, check.values)}</span>
            </li>
          ))}
        </ul>
      </section>
      <div>
        <button type="button" className="btn" onClick={() => setChecks(runChecks(lang))}>
          {t('site:simulate.again')}
        </button>
      </div>
    </div>
  );
}

/** The device check page. */
export default function SimulatePage(): ReactNode {
  return (
    <NamespaceReady ns="site">
      <SimulateBody />
    </NamespaceReady>
  );
}
