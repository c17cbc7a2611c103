/** The /packages screen: every package and subscription as a card; choosing one opens it (/select-package). */
import { useId, type ReactNode } from 'react';
import type { CheckoutState, OfferCard } from '../../stores/checkout.js';
import { useElement } from '../ui/shell.js';
import { Price } from '../ui/offer-price.js';
import { Failure, kindKey, Loading, StepTitle } from './parts.js';
import { c, checkoutErrorText } from './texts.js';
// The player's English texts (`player.*`) travel with its code.
import '../../i18n/player.js';

/** The offers list and its loading, error and empty states. */
export function Offers(props: { state: CheckoutState; onChoose(offer: OfferCard): void; onRetry(): void }): ReactNode {
  const { t } = useElement();
  const titleId = useId();
  const offers = props.state.offers;
  return (
    <section className="step" aria-labelledby={titleId} part="offers-step">
      <StepTitle id={titleId}>{t(c('offers.title'))}</StepTitle>
      {!offers || offers.status === 'idle' || offers.status === 'loading' ? (
        <Loading text={t(c('offers.loading'))} />
      ) : offers.status === 'error' ? (
        <Failure what={t(c('offers.error'))} why={checkoutErrorText(offers.error, t)} onRetry={props.onRetry} />
      ) : offers.value.length === 0 ? (
        <p part="empty">{t(c('offers.none'))}</p>
      ) : (
        <ul className="offers" part="offers">
          {offers.value.map((offer) => {
            const period = offer.kind === 'monthly' || offer.kind === 'annual' ? offer.kind : undefined;
            return (
              <li key={`${offer.type}-${offer.id}`} className="offer" part="offer">
                <span className="kind">{t(kindKey(offer.kind))}</span>
                <span className="offer-name">{offer.name}</span>
                <span className="offer-price" part="offer-price">
                  <Price amount={offer.price} base={offer.basePrice} period={period} />
                </span>
                {offer.description ? <span className="detail">{offer.description}</span> : null}
                {offer.trialDays ? (
                  <span className="badge trial" part="offer-trial">
                    {t('player.paywall.trial', { days: offer.trialDays })}
                  </span>
                ) : null}
                {offer.purchased ? (
                  <span className="badge purchased" part="purchased">
                    {t(c('offers.purchased'))}
                  </span>
                ) : null}
                <button
                  type="button"
                  className="btn"
                  part="offer-select"
                  aria-label={t(c('offers.chooseLabel'), { name: offer.name })}
                  onClick={() => props.onChoose(offer)}
                >
                  {t(c('offers.choose'))}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
