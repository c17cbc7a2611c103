// A React 19 host's TypeScript (see consumer.ts): the tags in JSX through `channel-elements/react`, with their
// attribute values and event listeners typed; each `@ts-expect-error` must be an error.
import type {} from 'channel-elements/react';
import type { ChannelPlayerElement } from 'channel-elements';

export function Watch(props: { id: number; onBought: (orderId: number) => void }) {
  const ref = { current: null as ChannelPlayerElement | null };
  return (
    <main>
      <channel-player ref={ref} event-id={props.id} autoplay muted prefer-playback="mse" lang="fr" />
      <channel-player
        event-id={`${props.id}`}
        onchannel-purchase-request={(e) => console.log(e.detail.offer.packageId)}
        onchannel-ad-start={() => console.log(ref.current?.adPlaying)}
        ontimeupdate={(e) => console.log(e.type)}
      />
      {/* @ts-expect-error: React runs its onTimeUpdate only on <video> and <audio>: the player's is ontimeupdate */}
      <channel-player onTimeUpdate={() => undefined} />
      <channel-checkout
        package-id={3}
        class="checkout"
        onchannel-purchase-complete={(e) => props.onBought(e.detail.orderId)}
      />
      <channel-schedule kind="library" watch-url="/watch/{id}" show-filters limit={20} />
      <channel-profile section="favourites" onchannel-login={(e) => console.log(e.detail.method)} />
      <channel-app base="/tv" />
      {/* @ts-expect-error: prefer-playback is native or mse */}
      <channel-player prefer-playback="flash" />
      {/* @ts-expect-error: the detail's field is orderId */}
      <channel-checkout onchannel-purchase-complete={(e) => props.onBought(e.detail.order)} />
      {/* @ts-expect-error: an id is digits */}
      <channel-checkout event-id="twelve" />
      {/* @ts-expect-error: section is one of the account's panels */}
      <channel-profile section="settings" />
    </main>
  );
}
