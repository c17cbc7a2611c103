/**
 * `<channel-checkout>` attributes: names (listed once) and parsing. A bad value is ignored with a notice (shown
 * translated in the element, and as an English console warning), never a crash.
 */
import { useEffect } from 'react';
import { env } from '../../env.js';
import type { CheckoutTarget } from '../../stores/checkout.js';
import type { AttributeNotice } from '../ui/attributes.js';

/** Attribute names of `<channel-checkout>` as r2wc props (camelCase; r2wc maps them to kebab-case). */
export const CHECKOUT_PROPS = ['eventId', 'packageId', 'subscriptionId', 'lang'] as const;

/** Raw attribute values. */
export type CheckoutProps = Partial<Record<(typeof CHECKOUT_PROPS)[number], string>>;

const ID = /^\d{1,12}$/;

/**
 * What the attributes ask to sell: the event's pass, a package or a subscription; nothing (undefined) lists
 * every offer. Only one may be given: the first of event-id, package-id, subscription-id wins.
 */
export function parseCheckoutProps(props: CheckoutProps): { target: CheckoutTarget | undefined; notices: AttributeNotice[] } {
  const notices: AttributeNotice[] = [];
  const given: CheckoutTarget[] = [];
  const read = (name: string, value: string | undefined, make: (id: number) => CheckoutTarget) => {
    const v = value?.trim();
    if (!v) return;
    if (!ID.test(v)) return void notices.push({ name, value: v, expected: 'digits only' });
    const target = make(Number(v));
    if (given.length) notices.push({ name, value: v, expected: 'only one of event-id, package-id and subscription-id' });
    else given.push(target);
  };
  read('event-id', props.eventId, (id) => ({ type: 'event', id }));
  read('package-id', props.packageId, (id) => ({ type: 'package', id }));
  read('subscription-id', props.subscriptionId, (id) => ({ type: 'subscription', id }));
  return { target: given[0], notices };
}

/** Tells the page author, once per ignored value, in English: what was ignored and what was expected. */
export function useNoticeWarnings(notices: readonly AttributeNotice[]): void {
  const lines = notices.map((n) => `<channel-checkout>: ignored ${n.name}="${n.value}"; expected ${n.expected}.`);
  const key = lines.join('\n');
  useEffect(() => {
    for (const line of lines) env().logger.warn(line);
    // The lines, not the array: a re-render with the same notices logs nothing new.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
