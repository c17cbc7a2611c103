/**
 * The signed-in sections of `<channel-profile>` that list things (orders, transactions; clips are in
 * ClipsSection.tsx) and device linking. Lists load when their tab opens and say so while loading, when empty and when they fail (with Retry).
 */
import { useStore } from '../ui/use-store.js';
import { Fragment, useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { Order, Transaction } from '../../api/account-schemas.js';
import { dateFormat } from '../../lib/time.js';
import {
  addDeviceSession,
  createOrders,
  createTransactions,
  normalizeDeviceCode,
  type ListStore,
} from '../../stores/account.js';
import { LoadingPanel } from '../ui/panels.js';
import { usePrice } from '../ui/price.js';
import { useElement } from '../ui/shell.js';
import { FormAlert, Status, Submit, TextField, useForm, useMsg } from './form.js';
import { SubscriptionActions } from './SubscriptionActions.js';

const k = (key: string) => `forms:account.${key}`;

/** A date (UNIX seconds) as the viewer reads it. */
function useDate(): (seconds: number) => string {
  const { lang } = useElement();
  return (seconds) => dateFormat(lang, { dateStyle: 'medium' }).format(new Date(seconds * 1000));
}

/** A label from a set of known values (any letter case), else the value as the server wrote it. */
function useLabel(): (group: string, value: string) => string {
  const { t } = useElement();
  return (group, value) => t(k(`${group}.${value.toLowerCase().replace(/[^a-z_]/g, '')}`), { defaultValue: value });
}

/**
 * Loads a list when the section opens; renders its loading, error (with Retry), empty and ready states. The
 * items are shown by `children` (a table), or one `row` each in a list.
 */
function ListSection<T extends { id: number }>(props: {
  create: () => ListStore<T>;
  title: string;
  empty: string;
  part: string;
  children?: (items: T[]) => ReactNode;
  row?: (item: T) => ReactNode;
}): ReactNode {
  const { t } = useElement();
  const text = useMsg();
  const { create } = props;
  const store = useMemo(() => create(), [create]);
  useEffect(() => {
    store.load();
    return () => store.destroy();
  }, [store]);
  const state = useStore(store.$state);
  const titleId = useId();
  const loading = state.status === 'loading' || state.status === 'idle';
  return (
    <section className="section" aria-labelledby={titleId} aria-busy={loading} part={props.part}>
      <h3 id={titleId} className="section-title">
        {props.title}
      </h3>
      {loading ? (
        <LoadingPanel variant="line" className="detail" text={t(k('loading'))} />
      ) : state.status === 'error' ? (
        <div className="panel error" role="alert" part="error">
          <p>{t(k('list.loadError'))}</p>
          <p className="detail">{text(state.error)}</p>
          <button type="button" className="btn" part="button retry" onClick={() => store.load()}>
            {t('common.retry')}
          </button>
        </div>
      ) : state.value.length === 0 ? (
        <p className="empty" part="empty">
          {props.empty}
        </p>
      ) : props.row ? (
        <ul className="rows">
          {state.value.map((item) => (
            <Fragment key={item.id}>{props.row!(item)}</Fragment>
          ))}
        </ul>
      ) : (
        props.children?.(state.value)
      )}
    </section>
  );
}

/** Active orders: type, product, status, price, dates; subscriptions with their state and auto-renewal. */
export function OrdersSection(): ReactNode {
  const { t } = useElement();
  return (
    <ListSection
      create={createOrders}
      title={t(k('orders.title'))}
      empty={t(k('orders.empty'))}
      part="orders"
      row={(order) => <OrderRow order={order} />}
    />
  );
}

function OrderRow({ order }: { order: Order }): ReactNode {
  const { t } = useElement();
  const price = usePrice();
  const date = useDate();
  const label = useLabel();
  const subscription = order.type === 'subscription';
  // Cancelled here: the row says so at once (the server's answer says the same on the next load).
  const [autoRenewal, setAutoRenewal] = useState(order.auto_renewal);
  const renewing = autoRenewal === 'active';
  return (
    <li className="row" part="order">
      <span className="row-kind">{t(k(`orders.types.${order.type}`))}</span>
      <span className="row-name">{order.product.name || `#${order.product.id}`}</span>
      <span className="badge" part="order-status" data-status={order.status.toLowerCase()}>
        {t(k('orders.statusLabel'), { status: label('orders.status', order.status) })}
      </span>
      {order.price != null ? (
        <span className="row-price">{price(order.price, { currency: order.currency })}</span>
      ) : null}
      <span className="detail">{t(k('orders.ordered'), { date: date(order.created_at) })}</span>
      {order.expires_at ? (
        <span className="detail">
          {t(k(subscription ? (renewing ? 'orders.renews' : 'orders.ends') : 'orders.until'), {
            date: date(order.expires_at),
          })}
        </span>
      ) : null}
      {subscription && order.subscription_status ? (
        <span className="detail" part="subscription-status">
          {t(k('orders.subscription'), { status: label('orders.subscriptionStatus', order.subscription_status) })}
        </span>
      ) : null}
      {subscription && autoRenewal ? (
        <span className="detail" part="auto-renewal">
          {t(k('orders.autoRenewal'), { status: t(k(`orders.autoRenewalStatus.${autoRenewal}`)) })}
        </span>
      ) : null}
      {order.reference ? (
        <span className="detail">{t(k('orders.reference'), { reference: order.reference })}</span>
      ) : null}
      <SubscriptionActions order={order} onCancelled={() => setAutoRenewal('cancelled')} />
    </li>
  );
}

/** The label of a subscription charge: 'New subscription' (created) or 'Subscription Renewal' (updated). */
function chargeLabel(label: string | null | undefined): 'newSubscription' | 'renewal' | undefined {
  if (!label) return undefined;
  if (/new subscription|^created$/i.test(label)) return 'newSubscription';
  if (/renewal|^updated$/i.test(label)) return 'renewal';
  return undefined;
}

/** Payment transactions, newest first: date, item (and charge label), amount, status. */
export function TransactionsSection(): ReactNode {
  const { t } = useElement();
  const cols = (name: string) => t(k(`transactions.columns.${name}`));
  return (
    <ListSection
      create={createTransactions}
      title={t(k('transactions.title'))}
      empty={t(k('transactions.empty'))}
      part="transactions"
    >
      {(items) => (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{cols('date')}</th>
              <th scope="col">{cols('item')}</th>
              <th scope="col">{cols('amount')}</th>
              <th scope="col">{cols('status')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <TransactionRow key={item.id} item={item} />
            ))}
          </tbody>
        </table>
      )}
    </ListSection>
  );
}

function TransactionRow({ item }: { item: Transaction }): ReactNode {
  const { t } = useElement();
  const price = usePrice();
  const date = useDate();
  const label = useLabel();
  const charge = chargeLabel(item.label);
  return (
    <tr part="transaction">
      <td>{date(item.created_at)}</td>
      <td>
        {item.product_name ?? ''}
        {charge || item.label ? (
          <span className="detail block" part="transaction-label">
            {charge ? t(k(`transactions.labels.${charge}`)) : item.label}
          </span>
        ) : null}
      </td>
      <td>{price(item.amount, { currency: item.currency })}</td>
      <td>
        <span className="badge" part="transaction-status" data-status={item.status.toLowerCase()}>
          {label('transactions.status', item.status)}
        </span>
      </td>
    </tr>
  );
}

/** Links a TV by the code it shows (`POST auth/add_session`). */
export function DevicesSection(): ReactNode {
  const { t } = useElement();
  const [code, setCode] = useState('');
  const [linked, setLinked] = useState(false);
  const form = useForm(['code']);
  const titleId = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setLinked(false);
    const outcome = await form.run(() => addDeviceSession(code));
    if (outcome?.ok) {
      setLinked(true);
      setCode('');
    }
  };
  return (
    <section className="section" aria-labelledby={titleId} part="devices">
      <h3 id={titleId} className="section-title">
        {t(k('devices.title'))}
      </h3>
      <form ref={form.ref} className="form" noValidate onSubmit={submit}>
        <p>{t(k('devices.text'))}</p>
        <FormAlert message={form.message} />
        <TextField
          name="code"
          label={t(k('devices.code'))}
          value={code}
          onChange={(value) => setCode(normalizeDeviceCode(value).slice(0, 12))}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          hint={t(k('devices.hint'))}
          error={form.error('code')}
          part="device-code"
          required
        />
        <div className="actions">
          <Submit busy={form.busy} label={t(k('devices.submit'))} busyLabel={t(k('devices.busy'))} />
        </div>
        {linked ? <Status>{t(k('devices.done'))}</Status> : null}
      </form>
    </section>
  );
}
