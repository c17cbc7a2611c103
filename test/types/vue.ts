// A Vue 3 host's TypeScript (see consumer.ts): the tags as Vue's template checker sees them through
// `channel-elements/vue` (GlobalComponents); each `@ts-expect-error` must be an error.
import type {} from 'channel-elements/vue';
import type { GlobalComponents } from 'vue';

type Props<T extends keyof GlobalComponents> = InstanceType<GlobalComponents[T]>['$props'];

export const player: Props<'channel-player'> = {
  eventId: 12,
  preferPlayback: 'native',
  autoplay: true,
  onChannelPurchaseRequest: (e) => console.log(e.detail.offer.type),
};
export const checkout: Props<'channel-checkout'> = {
  subscriptionId: '31',
  onChannelPurchaseComplete: (e) => console.log(e.detail.orderId, e.detail.product.type),
};
// @ts-expect-error: lang is en or fr
export const wrongLang: Props<'channel-schedule'> = { lang: 'es' };
// @ts-expect-error: an id is digits (in a template, `event-id` is checked as eventId)
export const wrongId: Props<'channel-player'> = { eventId: 'twelve' };
export const wrongDetail: Props<'channel-checkout'> = {
  // @ts-expect-error: the detail's field is orderId
  onChannelPurchaseComplete: (e) => console.log(e.detail.orderID),
};
