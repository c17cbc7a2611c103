/**
 * /packages (every offer), /buy (the offer the query names: event_id with single_event_package_id, package_id or
 * subscription_id; participant_id a team pass's team) and /select-package/{id}: the checkout view.
 */
import { useMemo, type ReactNode } from 'react';
import { ID_PATTERN } from '../../../lib/ids.js';
import type { CheckoutTarget } from '../../../stores/checkout.js';
import { CheckoutView } from '../../checkout/CheckoutView.js';
import { checkoutCss } from '../../checkout/styles.js';
import { useElement } from '../../ui/context.js';
import type { Route } from '../../../lib/routes.js';
import { PageHeading, useSite, useSiteStyles } from '../site.js';

/** What a checkout route sells. */
export function buyTarget(route: Route): CheckoutTarget | undefined {
  const q = route.query;
  const num = (value: string | undefined) => (value && ID_PATTERN.test(value) ? Number(value) : undefined);
  // `participant_id` chooses a team pass's team in advance.
  const team = num(q.participant_id);
  if (route.name === 'selectPackage') {
    const id = num(route.params.id);
    return id === undefined ? undefined : { type: 'package', id, team };
  }
  if (route.name !== 'buy') return undefined;
  const event = num(q.event_id);
  if (event !== undefined) return { type: 'event', id: event, packageId: num(q.single_event_package_id) };
  const pkg = num(q.package_id);
  if (pkg !== undefined) return { type: 'package', id: pkg, team };
  const sub = num(q.subscription_id);
  if (sub !== undefined) return { type: 'subscription', id: sub };
  return undefined;
}

/** The checkout page. */
export default function BuyPage(): ReactNode {
  useSiteStyles(checkoutCss);
  const { t } = useElement();
  const { route } = useSite();
  const target = buyTarget(route);
  const key = JSON.stringify(target ?? null);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the target by value: a new route naming the same target keeps the checkout going
  const options = useMemo(() => ({ target }), [key]);
  return (
    <>
      <PageHeading title={t(route.name === 'packages' ? 'site:titles.packages' : 'site:titles.buy')} />
      <CheckoutView options={options} />
    </>
  );
}
