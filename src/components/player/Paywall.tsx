/** The paywall of a player: the offers that unlock the item, priced in the channel's currency. */
import type { ReactNode } from 'react';
import type { Offer } from '../../stores/commerce/offers.js';
import type { PlayerState } from '../../stores/player.js';
import { Price } from '../ui/offer-price.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';
// The player's English texts (`player.*`) travel with its code.
import '../../i18n/player.js';

type Ready = Extract<PlayerState, { status: 'ready' }>;

/** Lists the offers; choosing one asks the view's host to open it (a checkout, or the host page's). */
export function Paywall(props: { state: Ready; onRetry(): void }): ReactNode {
  const { t } = useElement();
  const view = useViewHost();
  const { item, offers } = props.state;
  const choose = (offer: Offer) =>
    view.open({
      to: 'offer',
      eventId: item.kind === 'event' ? item.id : undefined,
      offer: { type: offer.type, id: offer.id, packageId: offer.type === 'event' ? offer.packageId : undefined },
    });
  const label = (offer: Offer) =>
    offer.type === 'event'
      ? t('player.paywall.event')
      : offer.type === 'package'
        ? offer.teamPass
          ? t('player.paywall.team')
          : t('player.paywall.package')
        : t(`player.paywall.${offer.period}`);
  return (
    <div className="panel paywall" part="paywall">
      <h3>{t('player.paywall.title')}</h3>
      {offers.status === 'idle' || offers.status === 'loading' ? (
        <p role="status">{t('player.paywall.loading')}</p>
      ) : offers.status === 'error' ? (
        <div role="alert">
          <p>{t('player.paywall.error')}</p>
          <button type="button" className="btn" onClick={props.onRetry}>
            {t('common.retry')}
          </button>
        </div>
      ) : offers.value.length === 0 ? (
        <p>{t('player.paywall.none')}</p>
      ) : (
        <>
          <p>{t('player.paywall.text')}</p>
          <ul className="offers" part="offers">
            {offers.value.map((offer) => (
              <li key={`${offer.type}-${offer.id}`} className="offer" part="offer">
                <span className="offer-kind">{label(offer)}</span>
                <span className="offer-name">{offer.name}</span>
                <span className="offer-price" part="offer-price">
                  <Price
                    amount={offer.price}
                    base={offer.basePrice}
                    period={offer.type === 'subscription' ? offer.period : undefined}
                  />
                </span>
                {offer.type === 'subscription' && offer.trialDays ? (
                  <span className="offer-trial">{t('player.paywall.trial', { days: offer.trialDays })}</span>
                ) : null}
                <button
                  type="button"
                  className="btn"
                  part="button offer-button"
                  aria-label={t('player.paywall.buy', { name: offer.name })}
                  onClick={() => choose(offer)}
                >
                  {t('player.paywall.choose')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
