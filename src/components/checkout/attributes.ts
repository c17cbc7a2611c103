/**
 * `<channel-checkout>` attributes: names (listed once) and parsing into the view's options. A bad value is
 * ignored with a notice (the shared pipeline shows it translated and tells the page author once), never a crash.
 */
import type { CheckoutTarget } from '../../stores/checkout.js';
import { AttributeReader, type Parsed } from '../ui/attributes.js';
import type { CheckoutOptions } from './CheckoutView.js';

/** Attribute names of `<channel-checkout>` as r2wc props (camelCase; r2wc maps them to kebab-case). */
export const CHECKOUT_PROPS = ['eventId', 'packageId', 'subscriptionId', 'lang'] as const;

/** Raw attribute values. */
export type CheckoutProps = Partial<Record<(typeof CHECKOUT_PROPS)[number], string>>;

const ONLY_ONE = 'only one of event-id, package-id and subscription-id';

/**
 * What the attributes ask to sell: the event's pass, a package or a subscription; no target lists every offer.
 * Only one may be given: the first valid one of event-id, package-id, subscription-id wins.
 */
export function parseCheckoutProps(props: CheckoutProps): Parsed<CheckoutOptions> {
  const read = new AttributeReader();
  let target: CheckoutTarget | undefined;
  const take = (name: string, value: string | undefined, type: CheckoutTarget['type']) => {
    const id = read.id(name, value);
    if (id === undefined) return;
    if (target) read.ignore(name, id, ONLY_ONE);
    else target = { type, id: Number(id) };
  };
  take('event-id', props.eventId, 'event');
  take('package-id', props.packageId, 'package');
  take('subscription-id', props.subscriptionId, 'subscription');
  return read.done({ target });
}
