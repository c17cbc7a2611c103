/**
 * The tag manager (gtag.js, spec section 7): a `gtag` stub and the script loaded once per tag id, lazily, the first
 * time something is sent. Never awaited: tracking never holds up what the viewer is doing.
 */
import { env } from '../env.js';

type Gtag = (...args: unknown[]) => void;
let gtagFor: string | undefined;

/** The page's gtag, loading the tag manager script once (lazily: only when a checkout event happens). */
export function tagManager(id: string, url: string | null | undefined): Gtag | undefined {
  if (typeof window === 'undefined' || typeof document === 'undefined') return undefined;
  const w = window as unknown as { dataLayer?: unknown[]; gtag?: Gtag };
  w.dataLayer ??= [];
  // gtag.js reads the `arguments` objects it finds in dataLayer, not arrays: the stub must push them as is.
  w.gtag ??= function gtag() {
    // eslint-disable-next-line prefer-rest-params
    w.dataLayer!.push(arguments);
  };
  if (gtagFor !== id) {
    gtagFor = id;
    const src = new URL(url || 'https://www.googletagmanager.com/gtag/js', document.baseURI);
    if (!src.searchParams.has('id')) src.searchParams.set('id', id);
    if (!document.querySelector(`script[src="${CSS.escape(src.href)}"]`)) {
      const script = document.createElement('script');
      script.async = true;
      script.src = src.href;
      document.head.appendChild(script);
    }
    w.gtag('js', new Date(env().now()));
    w.gtag('config', id, { send_page_view: false });
  }
  return w.gtag;
}
