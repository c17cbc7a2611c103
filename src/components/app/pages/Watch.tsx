/**
 * /watch/{id} and /watch_embed/{id}: the player of one event (the embed route has the plain layout: the site
 * renders no header or footer around it). The heading names the event once the player has loaded it. Under the
 * player, a signed-in viewer with clips of the event sees them (the clips strip).
 */
import { useStore } from '../../ui/use-store.js';
import { useEffect, useMemo, type ReactNode } from 'react';
import { ClipsStrip } from '../../clips/ClipsStrip.js';
import { clipsCss } from '../../clips/styles.js';
import { PlayerView } from '../../player/PlayerView.js';
import type { PlayerOptions } from '../../player/options.js';
import { playerCss } from '../../player/styles.js';
import { useElement } from '../../ui/context.js';
import { $eventTitles, loadEventTitle } from '../../../stores/site/titles.js';
import { $user } from '../../../stores/session.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';

/** The watch page. */
export default function WatchPage(): ReactNode {
  useSiteStyles(playerCss, clipsCss);
  const { t } = useElement();
  const { route } = useSite();
  const id = route.params.id ?? '';
  const embed = route.name === 'watchEmbed';
  const options = useMemo<PlayerOptions>(
    // A watch page is opened to watch: it starts at once (muted where the browser requires it).
    () => ({ target: { kind: 'event', id }, autoplay: true, muted: false, embed }),
    [id, embed],
  );
  useEffect(() => loadEventTitle(id), [id]);
  const name = useStore($eventTitles)[id];
  const signedIn = useStore($user) !== undefined;
  return (
    <>
      <PageHeading title={name ?? t('site:titles.watch')} className={embed ? 'sr-only' : 'page-title sr-only'} />
      <PlayerView options={options} />
      {signedIn && !embed ? <ClipsStrip eventId={Number(id)} /> : null}
    </>
  );
}
