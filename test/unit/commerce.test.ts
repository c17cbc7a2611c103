/**
 * The commerce domain (src/stores/commerce): the one offer builder (its order, trial and period rules, seen from
 * the paywall and from the checkout's list), the entitlement rules, and the one `poll()` with a fake clock.
 */
import { expect } from '@open-wc/testing';
import { Order, Package, Subscription, type Order as OrderType } from '../../src/api/contract.js';
import type { Playable } from '../../src/stores/commerce/access.js';
import { isPaidActive, isPurchased, packageItem } from '../../src/stores/commerce/purchases.js';
import { offerCards } from '../../src/stores/commerce/offer-cards.js';
import { buildOffers, offeredTrialDays, offersFor, subscriptionPeriod } from '../../src/stores/commerce/offers.js';
import { MAX_WAIT_MS, poll, POLL_MS } from '../../src/stores/commerce/orders.js';
import { installWorld, settle, T0, teardown, type World } from './helpers.js';

const NOW_S = T0 / 1000;

const order = (fields: Record<string, unknown> = {}): OrderType =>
  Order.parse({
    id: 70,
    type: 'package',
    status: 'paid',
    activity_status: 'active',
    product: { id: 901 },
    created_at: NOW_S - 60,
    ...fields,
  });

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

describe('commerce', () => {
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
      const cards = offerCards(packages, subscriptions, [order({ product: { id: 901 } })]);
      expect(cards.find((c) => c.id === 900)).to.equal(undefined);
      expect(cards.filter((c) => c.purchased).map((c) => c.id)).to.deep.equal([901]);
      expect(cards.find((c) => c.id === 902)).to.include({ kind: 'team' });
    });
  });

  describe('entitlements', () => {
    beforeEach(() => installWorld());
    afterEach(teardown);

    it('a held order is paid (or active) and active now, of any letter case', () => {
      expect(isPaidActive(order({ status: 'ACTIVE' }))).to.equal(true);
      expect(isPaidActive(order({ status: 'created' }))).to.equal(false);
      expect(isPaidActive(order({ activity_status: 'inactive' }))).to.equal(false);
      expect(isPaidActive(order({ expires_at: NOW_S }))).to.equal(false);
      expect(isPaidActive(order({ expires_at: NOW_S + 60 }))).to.equal(true);
      expect(isPaidActive(order({ type: 'subscription', subscription_status: 'Cancelled' }))).to.equal(false);
    });

    it('a category package is purchased when every category it covers is held', () => {
      const pkg = Package.parse({ id: 905, name: 'Two', price: 1, event_categories: [7, 8] });
      const one = order({ product: { id: 1, event_category_id: 7 } });
      expect(isPurchased(packageItem(pkg), [one])).to.equal(false);
      expect(isPurchased(packageItem(pkg), [one, order({ product: { id: 2, event_category_id: 8 } })])).to.equal(true);
      expect(
        isPurchased(packageItem(pkg), [order({ product: { id: 905 } })]),
        'the package itself covers all',
      ).to.equal(true);
    });

    it('a team pass asked about one team needs that team', () => {
      const pkg = packages[3]!;
      const held = [order({ product: { id: 902, participant_id: 21 } })];
      expect(isPurchased(packageItem(pkg, 21), held)).to.equal(true);
      expect(isPurchased(packageItem(pkg, 22), held)).to.equal(false);
      expect(isPurchased(packageItem(pkg), held), 'every team').to.equal(false);
    });
  });

  describe('poll()', () => {
    let w: World;
    beforeEach(() => {
      w = installWorld();
    });
    afterEach(teardown);

    it('asks every 2 s until settled, and not after', async () => {
      const answers = [1, 2, 3, 4];
      const asked: number[] = [];
      const result = settle(
        poll(
          async () => (asked.push(w.clock.now - T0), answers.shift()!),
          (n) => n === 3,
        ),
      );
      await w.advance(POLL_MS - 1);
      expect(asked, 'nothing before 2 s').to.deep.equal([]);
      for (let i = 0; i < 5; i++) await w.advance(POLL_MS);
      expect((await result).value).to.deep.equal({ settled: true, value: 3 });
      expect(asked).to.deep.equal([POLL_MS, 2 * POLL_MS, 3 * POLL_MS]);
    });

    it('is bounded: after the wait it answers the last value, not settled', async () => {
      let asked = 0;
      const result = settle(
        poll(
          async () => ++asked,
          () => false,
        ),
      );
      for (let t = 0; t < MAX_WAIT_MS + 5 * POLL_MS; t += POLL_MS) await w.advance(POLL_MS);
      expect((await result).value).to.deep.equal({ settled: false, value: MAX_WAIT_MS / POLL_MS });
      expect(asked).to.equal(MAX_WAIT_MS / POLL_MS);
    });

    it('a failed request stops it with that error; an abort stops it at once', async () => {
      let asked = 0;
      const failing = settle(
        poll(
          async () => {
            asked++;
            throw new Error('offline');
          },
          () => false,
        ),
      );
      await w.advance(POLL_MS);
      await w.advance(POLL_MS);
      expect(((await failing).error as Error).message).to.equal('offline');
      expect(asked).to.equal(1);

      const controller = new AbortController();
      const aborted = settle(
        poll(
          async () => ++asked,
          () => false,
          { signal: controller.signal },
        ),
      );
      controller.abort();
      await w.advance(POLL_MS);
      expect((await aborted).error).to.not.equal(undefined);
      expect(asked).to.equal(1);
    });
  });
});
