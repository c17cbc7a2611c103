/** What a viewer holds (src/stores/commerce/purchases.ts): paid and active orders, packages, team passes. */
import { expect } from '@open-wc/testing';
import { Package } from '../../../../src/api/contract.js';
import { isPaidActive, isPurchased, packageItem } from '../../../../src/stores/commerce/purchases.js';
import { order } from '../../../fixtures/contract.js';
import { installWorld, T0, teardown } from '../../helpers.js';

const NOW_S = T0 / 1000;

describe('held products', () => {
  beforeEach(() => installWorld());
  afterEach(teardown);

  it('a held order is paid (or active) and active now, of any letter case', () => {
    expect(isPaidActive(order({ type: 'package', status: 'ACTIVE' }))).to.equal(true);
    expect(isPaidActive(order({ type: 'package', status: 'created' }))).to.equal(false);
    expect(isPaidActive(order({ type: 'package', activity_status: 'inactive' }))).to.equal(false);
    expect(isPaidActive(order({ type: 'package', expires_at: NOW_S }))).to.equal(false);
    expect(isPaidActive(order({ type: 'package', expires_at: NOW_S + 60 }))).to.equal(true);
    expect(isPaidActive(order({ type: 'subscription', subscription_status: 'Cancelled' }))).to.equal(false);
  });

  it('a category package is purchased when every category it covers is held', () => {
    const pkg = Package.parse({ id: 905, name: 'Two', price: 1, event_categories: [7, 8] });
    const one = order({ type: 'package', product: { id: 1, event_category_id: 7 } });
    expect(isPurchased(packageItem(pkg), [one])).to.equal(false);
    expect(
      isPurchased(packageItem(pkg), [one, order({ type: 'package', product: { id: 2, event_category_id: 8 } })]),
    ).to.equal(true);
    expect(
      isPurchased(packageItem(pkg), [order({ type: 'package', product: { id: 905 } })]),
      'the package itself covers all',
    ).to.equal(true);
  });

  it('a team pass asked about one team needs that team', () => {
    const pkg = Package.parse({
      id: 902,
      name: 'Team',
      price: 29,
      is_team_pass: true,
      participants: [21, 22],
      event_categories: [8],
      weight: 1,
    });
    const held = [order({ type: 'package', product: { id: 902, participant_id: 21 } })];
    expect(isPurchased(packageItem(pkg, 21), held)).to.equal(true);
    expect(isPurchased(packageItem(pkg, 22), held)).to.equal(false);
    expect(isPurchased(packageItem(pkg), held), 'every team').to.equal(false);
  });
});
