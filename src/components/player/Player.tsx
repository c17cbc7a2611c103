/**
 * `<channel-player>`'s root: parses the attributes once and renders the player view inside the element's shell.
 * The view does the rest (see PlayerView.tsx).
 */
import { useEffect, useMemo, type ReactNode } from 'react';
import { bridgeFor } from '../../media/element-api.js';
import { prefetchPlayable } from '../../stores/player.js';
import { useAttributes } from '../ui/attributes.js';
import { ElementShell, type ShellProps } from '../ui/shell.js';
import { tagViewHost } from '../ui/view.js';
import { parsePlayerProps, PLAYER_PROPS, type PlayerProps } from './attributes.js';
import { PlayerView } from './PlayerView.js';
import { clipsCss } from '../clips/styles.js';
import { playerCss } from './styles.js';
import { EARLY_CSS } from '../../lib/early-video.js';

/** The element's root component. */
export function Player(props: PlayerProps & ShellProps): ReactNode {
  const { options, notices } = useAttributes('channel-player', PLAYER_PROPS, props, parsePlayerProps);
  const targetKey = JSON.stringify(options.target ?? null);
  // The item is asked for while the session still starts (the view renders once it is ready).
  useEffect(() => {
    if (options.target) prefetchPlayable(options.target);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `targetKey` is the target by value: a render with the same target asks for nothing again
  }, [targetKey]);
  // The element's media API answers for the stage its view plays on (src/media/element-api.ts).
  const container = props.container;
  const viewHost = useMemo(() => {
    const host = (container instanceof ShadowRoot ? container.host : container) as HTMLElement | undefined;
    return host ? tagViewHost(host, { media: bridgeFor(host) }) : undefined;
  }, [container]);
  return (
    <ElementShell container={container} lang={props.lang} css={[playerCss, clipsCss, EARLY_CSS]} viewHost={viewHost}>
      {() => <PlayerView options={options} notices={notices} />}
    </ElementShell>
  );
}
