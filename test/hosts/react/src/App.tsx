// A React 19 app hosting the elements as an integrator would: attributes and properties from state, the public
// events as `on` + name props, and elements that mount and unmount with the app's own views.
import type {} from 'channel-elements/react';
import type { ChannelPlayerElement, ChannelPurchaseRequestEvent } from 'channel-elements';
import { useEffect, useRef, useState } from 'react';

type Lang = 'en' | 'fr';
type Offer = ChannelPurchaseRequestEvent['detail']['offer'];

export function App() {
  const [lang, setLang] = useState<Lang>('en');
  const [shown, setShown] = useState(true);
  const [mounts, setMounts] = useState(1);
  const [eventId, setEventId] = useState<number>();
  const [draftId, setDraftId] = useState('');
  const [muted, setMuted] = useState(true);
  const [offer, setOffer] = useState<{ eventId?: number | undefined; offer: Offer }>();
  const [signedIn, setSignedIn] = useState(false);
  const [orders, setOrders] = useState<number[]>([]);
  const player = useRef<ChannelPlayerElement>(null);

  // A property, not an attribute: the player's media API (it is upgraded by the time the app's state changes).
  useEffect(() => {
    if (player.current) player.current.muted = muted;
  }, [muted, eventId, shown]);

  const toggle = () => {
    setShown((was) => !was);
    if (!shown) setMounts((n) => n + 1);
  };

  return (
    <div className="app" lang={lang}>
      <header>
        <h1>React {lang === 'fr' ? 'hôte' : 'host'}</h1>
        <p role="status" id="account-state">
          {signedIn ? 'Signed in' : 'Guest'}
        </p>
        <p role="status" id="orders">
          {orders.map((id) => `Order ${id} paid`).join(', ')}
        </p>
        <button type="button" id="lang" onClick={() => setLang(lang === 'en' ? 'fr' : 'en')}>
          {lang === 'en' ? 'Français' : 'English'}
        </button>
        <button type="button" id="toggle" onClick={toggle} aria-pressed={shown}>
          {shown ? 'Hide the elements' : 'Show the elements'}
        </button>
        <span id="mounts">{mounts}</span>
      </header>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (/^\d+$/.test(draftId)) setEventId(Number(draftId));
        }}
      >
        <label>
          Event number <input id="event-id" value={draftId} onChange={(e) => setDraftId(e.target.value)} />
        </label>
        <button type="submit">Watch</button>
        <button type="button" id="mute" aria-pressed={muted} onClick={() => setMuted(!muted)}>
          {muted ? 'Unmute' : 'Mute'}
        </button>
      </form>
      {shown && (
        <main>
          <channel-player
            ref={player}
            key={eventId ?? 'none'}
            event-id={eventId}
            lang={lang}
            muted
            autoplay
            onchannel-purchase-request={(e) => setOffer(e.detail)}
          />
          {offer && (
            <section aria-label="Checkout">
              <channel-checkout
                {...(offer.offer.type === 'subscription'
                  ? { 'subscription-id': offer.offer.id }
                  : offer.offer.type === 'package'
                    ? { 'package-id': offer.offer.id }
                    : { 'event-id': offer.eventId ?? offer.offer.id })}
                lang={lang}
                onchannel-purchase-complete={(e) => {
                  setOrders((list) => [...list, e.detail.orderId]);
                  setOffer(undefined);
                }}
              />
            </section>
          )}
          <channel-schedule
            kind="live"
            limit={12}
            lang={lang}
            onchannel-event-select={(e) => {
              e.preventDefault();
              setEventId(e.detail.id);
            }}
          />
        </main>
      )}
      <aside aria-label="Account">
        <channel-profile
          lang={lang}
          onchannel-login={() => setSignedIn(true)}
          onchannel-logout={() => setSignedIn(false)}
        />
      </aside>
    </div>
  );
}
