/**
 * The one offer builder (src/stores/commerce/offers.ts): its order, trial and period rules, seen from the paywall
 * and from the checkout's list (src/stores/commerce/offer-cards.ts).
 */
import { expect } from '@open-wc/testing';
import { Package, Subscription } from '../../../../src/api/contract.js';
import { fromEvent, type Playable } from '../../../../src/stores/commerce/access.js';
import { offerCards } from '../../../../src/stores/commerce/offer-cards.js';
import {
  buildOffers,
  offeredTrialDays,
  offersFor,
  subscriptionPeriod,
} from '../../../../src/stores/commerce/offers.js';
import { event, order } from '../../../fixtures/contract.js';

const packages = [
  Package.parse({ id: 900, name: 'Single', price: 3, type: 'single', weight: 0 }),
  Package.parse({ id: 903, name: 'Cheap pass', price: 19, event_categories: [7], weight: 2 }),
  Package.parse({ id: 901, name: 'Hockey', price: 49, event_categories: [7], weight: 2 }),
  Package.parse({
    id: 902,
    name: 'Team',
    price: 29,
    is_team_pass: true,
    participants: [21, 22],
    event_categories: [8],
    weight: 1,
  }),
];
const subscriptions = [
  Subscription.parse({ id: 32, name: 'Yearly', price: 99, period: 'year', weight: 1 }),
  Subscription.parse({ id: 31, name: 'Monthly', price: 9.99, offer: 'monthly', trial_period: 7, weight: 0 }),
  Subscription.parse({ id: 33, name: 'Odd', price: 5, offer: 'Annual plan', trial_period: -3, weight: 1 }),
];

const item: Playable = {
  kind: 'event',
  id: 501,
  title: 'Final',
  type: 'paid',
  hasAccess: false,
  status: 'live',
  hasRecording: true,
  geoBlocked: false,
  media: [],
  categoryId: 7,
  participantIds: [22],
  singlePackageId: 900,
  price: 4.5,
};

describe('offers: one builder', () => {
  it('orders each kind by weight, then price; subscriptions after packages', () => {
    expect(buildOffers(packages, subscriptions).map((o) => `${o.type}:${o.id}`)).to.deep.equal([
      'package:902',
      'package:903',
      'package:901',
      'subscription:31',
      'subscription:33',
      'subscription:32',
    ]);
  });

  it('one period rule: annual or year in the offer or the period, any case; else monthly', () => {
    expect(subscriptionPeriod({ offer: 'Annual plan' })).to.equal('annual');
    expect(subscriptionPeriod({ period: 'year' })).to.equal('annual');
    expect(subscriptionPeriod({ offer: 'monthly', period: null })).to.equal('monthly');
    expect(subscriptionPeriod({})).to.equal('monthly');
  });

  it('one trial rule: a positive length, else none', () => {
    expect([7, 0, -3, null, undefined].map(offeredTrialDays)).to.deep.equal([7, 0, 0, 0, 0]);
  });

  it('the paywall and the checkout list read the same periods and trials', () => {
    const paywall = offersFor(item, packages, subscriptions).filter((o) => o.type === 'subscription');
    const list = offerCards(packages, subscriptions, []).filter((c) => c.type === 'subscription');
    expect(paywall.map((o) => (o.type === 'subscription' ? [o.id, o.period, o.trialDays] : []))).to.deep.equal(
      list.map((c) => [c.id, c.kind, c.trialDays]),
    );
    expect(list.map((c) => [c.id, c.kind, c.trialDays])).to.deep.equal([
      [31, 'monthly', 7],
      [33, 'annual', 0],
      [32, 'annual', 0],
    ]);
  });

  it('a paywall offers the event pass and only the packages covering the event (a team pass for its team)', () => {
    const offers = offersFor({ ...item, participantIds: [30] }, packages, []);
    expect(offers.map((o) => `${o.type}:${o.id}`)).to.deep.equal(['event:501', 'package:903', 'package:901']);
    expect(offers[0]).to.include({ packageId: 900, price: 4.5, name: 'Single' });
    const team = offersFor({ ...item, categoryId: null }, packages, []).find((o) => o.type === 'package');
    expect(team).to.deep.include({ id: 902, teamPass: true, participantIds: [22] });
  });

  it('the checkout list leaves single-event passes out and flags what the viewer holds', () => {
    const cards = offerCards(packages, subscriptions, [order({ type: 'package', product: { id: 901 } })]);
    expect(cards.find((c) => c.id === 900)).to.equal(undefined);
    expect(cards.filter((c) => c.purchased).map((c) => c.id)).to.deep.equal([901]);
    expect(cards.find((c) => c.id === 902)).to.include({ kind: 'team' });
  });

  it('a paywall lists the single pass, the packages that cover the event and the subscriptions', () => {
    const item = fromEvent(
      event({
        type: 'paid',
        price: 9.99,
        single_event_package_id: 100,
        event_category_id: 5,
        participants: [
          { id: 21, name: 'A' },
          { id: 22, name: 'B' },
        ],
      }),
      'Final',
    );
    const packages = [
      Package.parse({ id: 100, name: 'Single event', price: 4, type: 'single' }),
      Package.parse({ id: 101, name: 'Basketball pass', price: 49, event_categories: [5], weight: 2 }),
      Package.parse({ id: 102, name: 'Hockey pass', price: 39, event_categories: [6] }),
      Package.parse({
        id: 103,
        name: 'Team pass',
        price: 29,
        is_team_pass: 1,
        participants: [22, 30],
        event_categories: [5],
      }),
      Package.parse({ id: 104, name: 'Other team', price: 29, is_team_pass: true, participants: [30] }),
    ];
    const subscriptions = [
      Subscription.parse({ id: 1, name: 'Annual', price: 99, offer: 'annual', weight: 2 }),
      Subscription.parse({ id: 2, name: 'Monthly', price: 9, offer: 'monthly', trial_period: 7, weight: 1 }),
    ];
    const offers = offersFor(item, packages, subscriptions);
    expect(offers.map((o) => `${o.type}:${o.id}`)).to.deep.equal([
      'event:7',
      'package:103',
      'package:101',
      'subscription:2',
      'subscription:1',
    ]);
    expect(offers[0]).to.include({ price: 9.99, packageId: 100 });
    expect(offers[1]).to.deep.include({ teamPass: true, participantIds: [22] });
    expect(offers[3]).to.include({ period: 'monthly', trialDays: 7 });
    expect(offers[4]).to.include({ period: 'annual', trialDays: 0 });
  });
});
