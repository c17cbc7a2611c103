// A host page's TypeScript using the package as it ships (its emitted declarations): `npm test` runs
// `tsc -p test/types` after the build. Every `@ts-expect-error` line must be an error: if the types let a wrong
// value or a wrong detail field through, the expectation is unused and the check fails.
import type { ChannelCheckoutElementAttributes, ChannelPlayerElement } from 'channel-elements';
import { ChannelPurchaseCompleteEvent } from 'channel-elements';

const player: ChannelPlayerElement = document.createElement('channel-player');
player.setAttribute('event-id', '12');
void player.play().then(() => player.pause());
player.currentTime = 30;
const live: 'live' | 'on-demand' | undefined = player.streamType;
player.addEventListener('timeupdate', () => console.log(player.currentTime, live));
player.addEventListener('channel-purchase-request', (e) => console.log(e.detail.offer.type, e.detail.eventId));
// @ts-expect-error: currentTime is a number
player.currentTime = 'thirty';
// @ts-expect-error: the offer has no price (prices are the checkout's to confirm)
player.addEventListener('channel-purchase-request', (e) => console.log(e.detail.offer.price));

const checkout = document.querySelector('channel-checkout');
checkout?.addEventListener('channel-purchase-complete', (e) => console.log(e.detail.orderId, e.detail.product.id));
// @ts-expect-error: the detail's field is orderId
checkout?.addEventListener('channel-purchase-complete', (e) => console.log(e.detail.orderID));
document.addEventListener('channel-purchase-complete', (e) => console.log(e.detail.product.type));
console.log(ChannelPurchaseCompleteEvent.type);

const schedule = document.createElement('channel-schedule');
schedule.kind = 'live';
schedule.addEventListener('channel-event-select', (e) => e.detail.id.toFixed());
// @ts-expect-error: kind is one of live, upcoming, vod, all and library
schedule.kind = 'weekly';
// @ts-expect-error: an id's property is its digits (the attribute's value), not a number
player.eventId = 12;

const attributes: ChannelCheckoutElementAttributes = { 'event-id': 12, lang: 'fr' };
// @ts-expect-error: lang is en or fr
const wrong: ChannelCheckoutElementAttributes = { lang: 'de' };
// @ts-expect-error: an id is digits
const notAnId: ChannelCheckoutElementAttributes = { 'package-id': 'twelve' };
console.log(attributes, wrong, notAnId);

const profile = document.createElement('channel-profile');
profile.addEventListener('channel-login', (e) => {
  const method: 'password' | 'register' | 'google' | 'facebook' = e.detail.method;
  console.log(method);
});
document.createElement('channel-app').base = '/tv';
