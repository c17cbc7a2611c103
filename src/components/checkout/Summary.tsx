/**
 * The summary step: the product, the team of a team pass, the price breakdown (price, base price, 'Taxes',
 * discount, total in the channel's currency), the terms (renewal, trial, 'All sales are final'), the promo code
 * and the way on to payment. An item the viewer already holds says so and offers no payment.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Pricing } from '../../api/account-schemas.js';
import type { CheckoutState, CheckoutStore, Product } from '../../stores/checkout.js';
import { CheckoutError } from '../../stores/commerce/errors.js';
import { subscriptionPeriod } from '../../stores/commerce/offers.js';
import { trialDays } from '../../stores/commerce/pricing.js';
import { $user } from '../../stores/session.js';
import { eventTitle } from '../ui/event.js';
import { useElement } from '../ui/shell.js';
import { usePrice } from '../ui/price.js';
import { BackButton, Failure, kindKey, Loading, StepTitle } from './parts.js';
import { c, checkoutErrorText } from './texts.js';

/** A product's title: an event reads "Away @ Home". */
export function useProductTitle(): (product: Product) => string {
  const { t } = useElement();
  return (product) => (product.event ? eventTitle(product.event, t as never) : product.name);
}

/** The kind line above a product's title. */
export function productKind(product: Product): string {
  if (product.type === 'subscription') return kindKey(product.period ?? 'monthly');
  return kindKey(product.type === 'event' ? 'event' : product.teamPass ? 'team' : 'package');
}

/** The summary step. */
export function Summary(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t } = useElement();
  const { state, store } = props;
  const product = state.product!;
  const title = useProductTitle();
  const titleId = useId();
  const pricing = state.pricing;
  const ready = pricing?.status === 'ready' ? pricing.value : undefined;
  const user = useStore($user);
  const days = trialDays(ready, user);
  return (
    <section className="step" aria-labelledby={titleId} part="summary">
      <p className="kind">{t(productKind(product))}</p>
      <StepTitle id={titleId}>{title(product)}</StepTitle>
      {product.teamPass ? <TeamSelect state={state} store={store} /> : null}
      {!pricing || pricing.status === 'idle' || pricing.status === 'loading' ? (
        <Loading text={t(c('summary.loading'))} />
      ) : pricing.status === 'error' && pricing.error instanceof CheckoutError ? (
        // The checkout's own refusal says what to do; nothing was sent.
        <p className="error" role="alert" part="error">
          {checkoutErrorText(pricing.error, t)}
        </p>
      ) : pricing.status === 'error' ? (
        <Failure what={t(c('summary.error'))} why={checkoutErrorText(pricing.error, t)} onRetry={() => store.retry()} />
      ) : (
        <Breakdown pricing={pricing.value} coupon={state.coupon.status === 'applied' ? state.coupon.code : undefined} />
      )}
      {ready ? <Terms pricing={ready} product={product} /> : null}
      {ready?.purchased ? (
        <p className="ok" role="status" part="purchased">
          {t(c('summary.purchased'), { name: title(product) })}
        </p>
      ) : (
        <>
          <CouponForm state={state} store={store} />
          <div className="actions">
            <button type="button" className="btn" part="continue" disabled={!ready} onClick={() => store.toPayment()}>
              {days > 0 ? t(c('summary.startTrial'), { days }) : t(c('summary.continue'))}
            </button>
            {state.fromList ? <BackButton label={t(c('backToOffers'))} onClick={() => store.back()} /> : null}
          </div>
        </>
      )}
      {ready?.purchased && state.fromList ? (
        <BackButton label={t(c('backToOffers'))} onClick={() => store.back()} />
      ) : null}
    </section>
  );
}

function TeamSelect(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t, lang } = useElement();
  const id = useId();
  const { state, store } = props;
  // A team with teams of its own (a club's squads): the pass covers them too, and the viewer is told which.
  const chosen = state.product!.teams.find((team) => team.id === state.team);
  const covered = chosen?.children.length
    ? new Intl.ListFormat(lang, { type: 'conjunction' }).format(chosen.children)
    : undefined;
  const missing =
    state.pricing?.status === 'error' &&
    state.pricing.error instanceof CheckoutError &&
    state.pricing.error.code === 'team-missing';
  return (
    <div className="field" part="team-select">
      <label htmlFor={id}>{t(c('summary.team'))}</label>
      <select
        id={id}
        value={state.team ?? ''}
        aria-invalid={missing || undefined}
        aria-describedby={covered ? `${id}-children` : undefined}
        onChange={(e) => store.chooseTeam(e.target.value ? Number(e.target.value) : undefined)}
      >
        <option value="">{t(c('summary.chooseTeam'))}</option>
        {state.product!.teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </select>
      {covered ? (
        <p id={`${id}-children`} className="detail" part="team-children">
          {t(c('summary.teamChildren'), { teams: covered })}
        </p>
      ) : null}
    </div>
  );
}

function Breakdown(props: { pricing: Pricing; coupon: string | undefined }): ReactNode {
  const { t } = useElement();
  const price = usePrice();
  const { pricing } = props;
  const money = (amount: number) => price(amount, { currency: pricing.currency });
  const code = pricing.coupon || props.coupon;
  return (
    <dl className="breakdown" aria-label={t(c('summary.breakdown'))} part="breakdown">
      <div part="price">
        <dt>{t(c('summary.price'))}</dt>
        <dd>{money(pricing.price)}</dd>
      </div>
      {pricing.base_price && pricing.base_price > pricing.price ? (
        <div part="base-price">
          <dt>{t(c('summary.basePrice'))}</dt>
          <dd>
            <s>{money(pricing.base_price)}</s>
          </dd>
        </div>
      ) : null}
      {pricing.service_fee > 0 ? (
        <div part="taxes">
          <dt>{t(c('summary.taxes'))}</dt>
          <dd>{money(pricing.service_fee)}</dd>
        </div>
      ) : null}
      {pricing.discount > 0 ? (
        <div part="discount">
          <dt>{code ? t(c('summary.discountCode'), { code }) : t(c('summary.discount'))}</dt>
          <dd>{money(-pricing.discount)}</dd>
        </div>
      ) : null}
      <div className="total-row" part="total">
        <dt>{t(c('summary.total'))}</dt>
        <dd>{money(pricing.total)}</dd>
      </div>
    </dl>
  );
}

function Terms(props: { pricing: Pricing; product: Product }): ReactNode {
  const { t } = useElement();
  const user = useStore($user);
  const days = trialDays(props.pricing, user);
  const subscription = props.product.type === 'subscription';
  const period = props.product.period ?? subscriptionPeriod(props.pricing);
  return (
    <ul className="terms" part="terms">
      {subscription ? <li part="renewal">{t(c(`summary.${period}`))}</li> : null}
      {days > 0 ? <li part="trial">{t(c('summary.trial'), { days })}</li> : null}
      {subscription ? <li>{t(c('summary.noRefunds'))}</li> : null}
      <li part="final">{t(c('summary.final'))}</li>
    </ul>
  );
}

function CouponForm(props: { state: CheckoutState; store: CheckoutStore }): ReactNode {
  const { t } = useElement();
  const { state, store } = props;
  const coupon = state.coupon;
  const [code, setCode] = useState(coupon.code ?? '');
  const id = useId();
  const errorId = `${id}-error`;
  const busy = coupon.status === 'busy';
  // A coupon the server dropped (or a new product) resets what the field shows.
  useEffect(() => {
    if (coupon.status === 'applied' && coupon.code) setCode(coupon.code);
  }, [coupon.status, coupon.code]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void store.applyCoupon(code);
  };
  return (
    <form className="field" noValidate onSubmit={submit} part="coupon">
      <label htmlFor={id}>{t(c('coupon.label'))}</label>
      <div className="inline">
        <input
          id={id}
          name="coupon"
          autoComplete="off"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-invalid={coupon.status === 'error' || undefined}
          aria-describedby={coupon.status === 'error' ? errorId : undefined}
        />
        <button type="submit" className="btn secondary" part="coupon-apply" disabled={busy}>
          {busy ? t(c('coupon.applying')) : t(c('coupon.apply'))}
        </button>
      </div>
      {coupon.status === 'error' ? (
        <p id={errorId} className="field-error" role="alert" part="coupon-error">
          {checkoutErrorText(coupon.error, t)}
        </p>
      ) : coupon.status === 'applied' ? (
        <p className="ok inline" role="status" part="coupon-applied">
          <span>{t(c('coupon.applied'), { code: coupon.code })}</span>
          <button
            type="button"
            className="link"
            onClick={() => {
              setCode('');
              store.removeCoupon();
            }}
          >
            {t(c('coupon.remove'))}
          </button>
        </p>
      ) : null}
    </form>
  );
}
