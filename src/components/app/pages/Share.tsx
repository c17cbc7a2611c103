/**
 * /share/{id}/{uuid}: a shared clip, for anyone with its link (signed in or not): the player plays it through
 * `shared-clip`, with its name, its event (a link to the event's watch page) and its tags. The page's heading
 * (and title) say "Shared clip"; the player's own title names the clip.
 */
import { useMemo, type ReactNode } from 'react';
import { clipsCss } from '../../clips/styles.js';
import { PlayerView } from '../../player/PlayerView.js';
import type { PlayerOptions } from '../../player/options.js';
import { playerCss } from '../../player/styles.js';
import { useElement } from '../../ui/context.js';
import { NamespaceReady } from '../../ui/namespace.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';

/** The share page. */
export default function SharePage(): ReactNode {
  useSiteStyles(playerCss, clipsCss);
  const { route } = useSite();
  const id = route.params.id ?? '';
  const uuid = 'uuid' in route.params ? route.params.uuid : '';
  const options = useMemo<PlayerOptions>(
    () => ({ target: { kind: 'clip', id, uuid }, autoplay: false, muted: false, embed: false }),
    [id, uuid],
  );
  return (
    <NamespaceReady ns="clips">
      <Heading />
      <PlayerView options={options} />
    </NamespaceReady>
  );
}

function Heading(): ReactNode {
  const { t } = useElement();
  return <PageHeading title={t('clips:share.title')} className="page-title sr-only" />;
}
