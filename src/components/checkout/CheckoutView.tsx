/**
 * The checkout view: sells a single-event pass, a package or a subscription, or lists every offer. The logic
 * lives in the checkout store (src/stores/checkout.ts); this renders its steps, moves focus to each new step's
 * heading and answers purchase requests (a paywall's offer, or one the host page makes). The tag
 * (`<channel-checkout>`) and the site render it alike; what it asks of its root goes through `useViewHost`.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { ChannelPurchaseCompleteEvent } from '../../events/account.js';
import { createCheckout, type CheckoutState, type CheckoutStore, type CheckoutTarget } from '../../stores/checkout.js';
import { targetOf } from '../../stores/checkout/product.js';
import { $purchaseRequest } from '../../stores/host-requests.js';
import type { AttributeNotice } from '../ui/attributes.js';
import { AttributeNotices } from '../ui/panels.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';
import { Offers } from './Offers.js';
import { BackButton, Failure, Loading, RetryButton, StepTitle } from './parts.js';
import { FailureDialog, Payment } from './Payment.js';
import { productKind, Summary, useProductTitle } from './Summary.js';
import { c, CheckoutTexts, checkoutErrorText } from './texts.js';

/** What a checkout view sells. */
export interface CheckoutOptions {
  /** The product to sell; none: every package and subscription is listed, and choosing one opens it. */
  target?: CheckoutTarget | undefined;
}

/** A checkout with its own store; `notices` are the ignored attribute values of the tag that renders it. */
export function CheckoutView(props: {
  options: CheckoutOptions;
  notices?: readonly AttributeNotice[] | undefined;
}): ReactNode {
  // The body waits for the `checkout` texts of its language (a chunk of their own).
  return (
    <CheckoutTexts>
      <CheckoutBody {...props} />
    </CheckoutTexts>
  );
}

function CheckoutBody(props: {
  options: CheckoutOptions;
  notices?: readonly AttributeNotice[] | undefined;
}): ReactNode {
  const { t } = useElement();
  const { emit, reveal } = useViewHost();
  const { target } = props.options;

  const store = useMemo(
    () => createCheckout({ onComplete: (detail) => emit(new ChannelPurchaseCompleteEvent(detail)) }),
    [emit],
  );
  useEffect(() => () => store.destroy(), [store]);
  const targetKey = JSON.stringify(target ?? null);
  useEffect(() => {
    store.setTarget(target);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `targetKey` is the target by value: new options naming the same target do not restart the checkout
  }, [store, targetKey]);

  // A paywall elsewhere on the page (or the host page) chose an offer: open it here and bring the view into sight.
  useEffect(
    () =>
      $purchaseRequest.listen((numbered) => {
        const next = targetOf(numbered?.request.offer);
        if (next && store.select(next, false)) reveal({ behavior: 'smooth' });
      }),
    [store, reveal],
  );

  const state = useStore(store.$state);
  const view = state.view;

  // Each new step's heading takes focus; not the first step shown (a page load must not move focus into the
  // view), nor while something loads.
  const section = useRef<HTMLElement>(null);
  const step =
    view === 'idle' || view === 'loading'
      ? undefined
      : `${view}:${state.product?.type ?? ''}-${state.product?.id ?? ''}`;
  const shown = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!step) return;
    const previous = shown.current;
    shown.current = step;
    if (previous === undefined || previous === step) return;
    section.current?.querySelector<HTMLElement>('[data-step-title]')?.focus();
  }, [step]);

  return (
    <section ref={section} className="checkout" aria-label={t(c('label'))} part="checkout">
      <AttributeNotices notices={props.notices ?? []} />
      <Step state={state} store={store} />
      <FailureDialog state={state} store={store} />
    </section>
  );
}

function Step(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t } = useElement();
  const { state, store } = props;
  switch (state.view) {
    case 'idle':
    case 'loading':
      return <Loading text={t(c('loading'))} />;
    case 'offers':
      return (
        <Offers
          state={state}
          onChoose={(offer) => store.select({ type: offer.type, id: offer.id }, true)}
          onRetry={() => store.retry()}
        />
      );
    case 'load-error':
      return (
        <Failure what={t(c('loadError'))} why={checkoutErrorText(state.loadError, t)} onRetry={() => store.retry()}>
          {state.fromList ? <BackButton label={t(c('backToOffers'))} onClick={() => store.back()} /> : null}
        </Failure>
      );
    case 'free':
      return <Free state={state} store={store} />;
    case 'sign-in':
      return <SignIn state={state} store={store} />;
    case 'summary':
      return <Summary state={state} store={store} />;
    case 'payment':
      return <Payment state={state} store={store} />;
    default:
      return <Outcome state={state} store={store} />;
  }
}

function Free(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t } = useElement();
  const title = useProductTitle();
  const titleId = useId();
  const product = props.state.product!;
  return (
    <section className="step" aria-labelledby={titleId} part="free">
      <StepTitle id={titleId}>{title(product)}</StepTitle>
      <p>{t(c('free'), { name: title(product) })}</p>
      {props.state.fromList ? <BackButton label={t(c('backToOffers'))} onClick={() => props.store.back()} /> : null}
    </section>
  );
}

/** A guest: sign in first (through `<channel-profile>` or the host page); the checkout continues once signed in. */
function SignIn(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t } = useElement();
  const { open } = useViewHost();
  const title = useProductTitle();
  const titleId = useId();
  const product = props.state.product!;
  const eventId = product.type === 'event' ? product.id : undefined;
  return (
    <section className="step" aria-labelledby={titleId} part="sign-in">
      <p className="kind">{t(productKind(product))}</p>
      <StepTitle id={titleId}>{t(c('signIn.title'))}</StepTitle>
      <p>{t(c('signIn.text'), { name: title(product) })}</p>
      <div className="actions">
        <button
          type="button"
          className="btn"
          part="sign-in-button"
          onClick={() => open({ to: 'sign-in', reason: 'purchase', eventId })}
        >
          {t(c('signIn.button'))}
        </button>
        {props.state.fromList ? <BackButton label={t(c('backToOffers'))} onClick={() => props.store.back()} /> : null}
      </div>
    </section>
  );
}

/** The ends of a purchase: waiting, success, the bounded wait's "we'll let you know", a request error. */
function Outcome(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t } = useElement();
  const titleId = useId();
  const { state, store } = props;
  const ref = state.order?.reference || (state.order ? `#${state.order.id}` : '');
  const title = useProductTitle();
  const name = state.product ? title(state.product) : (state.bought?.name ?? '');
  switch (state.view) {
    case 'waiting':
      return (
        <section className="step" aria-labelledby={titleId} part="waiting">
          <div className="status" role="status">
            <span className="spinner" aria-hidden="true" />
            <StepTitle id={titleId}>{t(c('waiting.title'))}</StepTitle>
          </div>
          <p className="detail">{t(c('waiting.text'))}</p>
        </section>
      );
    case 'success':
      return (
        <section className="step" aria-labelledby={titleId} part="success">
          <div role="status">
            <StepTitle id={titleId}>{t(c('success.title'))}</StepTitle>
          </div>
          <p>{state.bought?.trial ? t(c('success.trial'), { name }) : t(c('success.text'), { name })}</p>
          {ref ? <p className="detail">{t(c('success.reference'), { ref })}</p> : null}
        </section>
      );
    case 'pending':
      return (
        <section className="step" aria-labelledby={titleId} part="pending">
          <StepTitle id={titleId}>{t(c('pending.title'))}</StepTitle>
          <p role="status">{t(c('pending.text'), { ref })}</p>
          <div className="actions">
            <RetryButton secondary label={t(c('pending.check'))} onClick={() => store.retryWait()} />
          </div>
        </section>
      );
    default:
      return (
        <section className="step" aria-labelledby={titleId} part="error">
          <StepTitle id={titleId}>{t(c('pollError.title'))}</StepTitle>
          <div role="alert">
            <p>{t(c('pollError.text'))}</p>
            <p className="detail">{checkoutErrorText(state.pollError, t)}</p>
          </div>
          <div className="actions">
            <RetryButton onClick={() => store.retryWait()} />
          </div>
        </section>
      );
  }
}
