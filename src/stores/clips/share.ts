/**
 * Sharing a clip: its link on the channel's site, copied to the clipboard or handed to the browser's share sheet.
 * The clipboard and the share sheet are the environment's.
 */
import type { Clip } from '../../api/account-schemas.js';
import { isCancel } from '../../api/errors.js';
import { env } from '../../lib/env.js';
import { siteBase } from '../../lib/url-rules.js';
import { $settings } from '../session.js';

/**
 * The address of a path of the channel's site: on its `site_url`, else on this page's origin under the site's base
 * (`siteHref` gives a site path's address inside `<channel-app>`).
 */
export function siteAddress(path: string, siteHref?: (path: string) => string): string {
  // Only an http(s) site (url-rules.ts): links are built on it.
  const site = siteBase($settings.get()?.site_url);
  if (site) return site + path;
  const origin = env().location()?.origin ?? '';
  return origin + (siteHref ? siteHref(path) : path);
}

/** A clip's share link, `{site}/share/{id}/{uuid}` (see `siteAddress`); undefined without a uuid. */
export function clipShareUrl(clip: Pick<Clip, 'id' | 'uuid'>, siteHref?: (path: string) => string): string | undefined {
  return clip.uuid ? siteAddress(`/share/${clip.id}/${encodeURIComponent(clip.uuid)}`, siteHref) : undefined;
}

/**
 * Where a done clip's Play leads: its share page, inside the site when `siteHref` is given (`<channel-app>`), else
 * on the channel's site; undefined without a uuid.
 */
export function clipPlayHref(clip: Pick<Clip, 'id' | 'uuid'>, siteHref?: (path: string) => string): string | undefined {
  if (!clip.uuid) return undefined;
  return siteHref?.(`/share/${clip.id}/${encodeURIComponent(clip.uuid)}`) ?? clipShareUrl(clip);
}

/** Copies a share link; false where the browser refuses (the link is then shown to copy by hand). */
export async function copyClipLink(url: string): Promise<boolean> {
  try {
    await env().copyText(url);
    return true;
  } catch {
    return false;
  }
}

/** True where the browser has a share sheet (the Web Share API). */
export function canShareClips(): boolean {
  return env().webShare() !== undefined;
}

/** Opens the browser's share sheet with a clip's link; 'cancelled' when the viewer closed it. */
export async function shareClipLink(title: string, url: string): Promise<'shared' | 'cancelled' | 'failed'> {
  const share = env().webShare();
  if (!share) return 'failed';
  try {
    await share({ title, url });
    return 'shared';
  } catch (error) {
    return isCancel(error) ? 'cancelled' : 'failed';
  }
}
