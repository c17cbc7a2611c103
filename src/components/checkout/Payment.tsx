/**
 * The payment step: saved cards (a radio list) or a new card, the card field, Pay (or the trial's start), and
 * the failure popup. The card field is Stripe's Payment Element with a deferred intent (mode, amount and currency
 * of the price): Stripe Elements cannot mount inside a shadow root (stripe/stripe-js issues #143 and #399), so the
 * view's root takes a light-DOM `<div slot="card">` (`attachLight`) that Stripe mounts into, shown here through
 * `<slot name="card">`. Stripe.js itself loads only when this step shows.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Pricing, SavedCard } from '../../api/account-schemas.js';
import type { StripeElements, StripeElementsOptions, StripePaymentElement } from '../../lib/stripe.js';
import type { CheckoutState, CheckoutStore } from '../../stores/checkout.js';
import { elementsOptions } from '../../stores/checkout/stripe.js';
import { CheckoutError } from '../../stores/commerce/errors.js';
import { trialDays } from '../../stores/commerce/pricing.js';
import { $user } from '../../stores/session.js';
import { failed, LOADING, ready, type Async } from '../../lib/async.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';
import { Modal } from './Dialog.js';
import { usePrice } from '../ui/price.js';
import { BackButton, Failure, Loading, StepTitle } from './parts.js';
import { c, checkoutErrorText, orderErrorText, payErrorText } from './texts.js';

const NEW = 'new';

/** The payment step. */
export function Payment(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t } = useElement();
  const { state, store } = props;
  const price = usePrice();
  const user = useStore($user);
  const titleId = useId();
  const payRef = useRef<HTMLButtonElement>(null);
  const pricing = state.pricing?.status === 'ready' ? state.pricing.value : undefined;
  // Saved cards that could not be loaded leave the new card as the way to pay.
  const cards = state.cards?.status === 'ready' ? state.cards.value : state.cards?.status === 'error' ? [] : undefined;
  const [method, setMethod] = useState<string | undefined>(undefined);
  const [elements, setElements] = useState<StripeElements | undefined>(undefined);
  const [save, setSave] = useState(false);
  const days = trialDays(pricing, user);
  const total = pricing ? price(pricing.total, { currency: pricing.currency }) : '';
  // Without saved cards there is nothing to choose: the new card is the way.
  const hasSaved = Boolean(cards && cards.length > 0);
  const useNew = cards !== undefined && (!hasSaved || method === NEW);

  // After the failure popup closes, the viewer is back at Pay.
  const hadFailure = useRef(false);
  useEffect(() => {
    if (state.failure) hadFailure.current = true;
    else if (hadFailure.current) {
      hadFailure.current = false;
      payRef.current?.focus();
    }
  }, [state.failure]);

  const pay = () => {
    if (!useNew && !method) return void store.pay(undefined);
    void store.pay(useNew ? { kind: 'new', elements, save } : { kind: 'saved', id: method! });
  };

  return (
    <section className="step" aria-labelledby={titleId} part="payment">
      <StepTitle id={titleId}>{t(c('payment.title'))}</StepTitle>
      {pricing ? (
        <p className="offer-price" part="payment-total">
          {t(c('payment.total'), { total })}
        </p>
      ) : null}
      {!state.cards || state.cards.status === 'loading' ? (
        <Loading text={t(c('payment.cardsLoading'))} />
      ) : state.cards.status === 'error' ? (
        <Failure what={t(c('payment.cardsError'))} onRetry={() => store.retry()} />
      ) : hasSaved ? (
        <SavedCards cards={cards!} value={method} onChange={setMethod} disabled={state.busy} />
      ) : null}
      {useNew ? (
        <div className="new-card" part="new-card">
          {pricing ? <CardField store={store} pricing={pricing} trial={days > 0} onElements={setElements} /> : null}
          {days > 0 ? null : (
            <label className="check">
              <input type="checkbox" checked={save} disabled={state.busy} onChange={(e) => setSave(e.target.checked)} />
              <span>{t(c('payment.saveCard'))}</span>
            </label>
          )}
        </div>
      ) : null}
      {state.payError ? (
        <p className="error" role="alert" part="error pay-error">
          {payErrorText(state.payError, t)}
        </p>
      ) : null}
      <p className="secure" part="secure">
        {t(c('payment.encryption'))}
      </p>
      <div className="actions">
        <button
          ref={payRef}
          type="button"
          className="btn"
          part="pay"
          disabled={state.busy || !cards}
          aria-busy={state.busy || undefined}
          onClick={pay}
        >
          {days > 0
            ? state.busy
              ? t(c('payment.starting'))
              : t(c('payment.startTrial'), { days })
            : state.busy
              ? t(c('payment.paying'))
              : t(c('payment.pay'), { total })}
        </button>
        <BackButton label={t(c('back'))} disabled={state.busy} onClick={() => store.back()} />
      </div>
    </section>
  );
}

/** The popup of a failed order (a failure rejects with the order and popup=true); OK or Escape closes it. */
export function FailureDialog(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t } = useElement();
  const failure = props.state.failure;
  if (!failure) return null;
  return (
    <Modal
      role="alertdialog"
      part="failed-dialog"
      title={t(c('failed.title'))}
      onClose={() => props.store.dismissFailure()}
      actions={
        <button
          type="button"
          className="btn"
          part="failed-ok"
          data-autofocus=""
          onClick={() => props.store.dismissFailure()}
        >
          {t('common.ok')}
        </button>
      }
    >
      <p>{orderErrorText(failure.error, t)}</p>
    </Modal>
  );
}

/** The saved cards and "Use a new card", as one radio group. */
function SavedCards(props: {
  cards: SavedCard[];
  value: string | undefined;
  onChange(id: string): void;
  disabled: boolean;
}): ReactNode {
  const { t } = useElement();
  const name = useId();
  return (
    <fieldset part="saved-cards">
      <legend>{t(c('payment.method'))}</legend>
      {props.cards.map((card) => (
        <label key={card.id} className="choice" part="saved-card">
          <input
            type="radio"
            name={name}
            value={card.id}
            checked={props.value === card.id}
            disabled={props.disabled}
            onChange={() => props.onChange(card.id)}
          />
          <span>
            {t(c('payment.savedCard'), {
              brand: card.brand.charAt(0).toUpperCase() + card.brand.slice(1),
              last4: card.last4,
              month: String(card.exp_month).padStart(2, '0'),
              year: card.exp_year,
            })}
          </span>
        </label>
      ))}
      <label className="choice" part="new-card-option">
        <input
          type="radio"
          name={name}
          value={NEW}
          checked={props.value === NEW}
          disabled={props.disabled}
          onChange={() => props.onChange(NEW)}
        />
        <span>{t(c('payment.newCard'))}</span>
      </label>
    </fieldset>
  );
}

/**
 * Stripe's Payment Element: a light-DOM `<div slot="card">` of the view's root, mounted by Stripe and shown
 * through the slot. Loads Stripe.js on first show; made again when the price, the mode or the language change;
 * removes the field and its node when it goes away.
 */
function CardField(props: {
  store: CheckoutStore;
  pricing: Pricing;
  trial: boolean;
  onElements(elements: StripeElements | undefined): void;
}): ReactNode {
  const { t, lang } = useElement();
  const { attachLight } = useViewHost();
  const labelId = useId();
  const [status, setStatus] = useState<Async<void>>(LOADING);
  const [attempt, setAttempt] = useState(0);
  const onElements = useRef(props.onElements);
  onElements.current = props.onElements;
  const options = elementsOptions(props.pricing, props.trial, lang);
  const optionsKey = JSON.stringify(options);

  useEffect(() => {
    let live = true;
    let field: StripePaymentElement | undefined;
    let detach: (() => void) | undefined;
    const node = document.createElement('div');
    node.slot = 'card';
    node.setAttribute('data-channel-card', '');
    setStatus(LOADING);
    props.store.stripe().then(
      (stripe) => {
        if (!live) return;
        detach = attachLight(node);
        const elements = stripe.elements(JSON.parse(optionsKey) as StripeElementsOptions);
        field = elements.create('payment', { layout: 'tabs' });
        field.mount(node);
        setStatus(ready(undefined));
        onElements.current(elements);
      },
      (error: unknown) => {
        if (live) setStatus(failed(error));
      },
    );
    return () => {
      live = false;
      onElements.current(undefined);
      if (field?.destroy) field.destroy();
      else field?.unmount?.();
      if (detach) detach();
      else node.remove();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `props.store` is the view's one checkout store; a retry, a language or another price remounts the field
  }, [attachLight, optionsKey, attempt]);

  return (
    <div className="field">
      <span id={labelId} className="label">
        {t(c('payment.card'))}
      </span>
      <div className="card-field" role="group" aria-labelledby={labelId} part="card">
        <slot name="card" />
      </div>
      {status.status === 'loading' ? <Loading text={t(c('payment.cardLoading'))} /> : null}
      {status.status === 'error' ? (
        <Failure
          what={status.error instanceof CheckoutError ? checkoutErrorText(status.error, t) : t(c('errors.stripeLoad'))}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      ) : null}
    </div>
  );
}
