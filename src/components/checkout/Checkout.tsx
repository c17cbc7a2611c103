/**
 * `<channel-checkout>`'s root: parses the attributes once and renders the checkout view inside the element's
 * shell. The view does the rest (see CheckoutView.tsx).
 */
import type { ReactNode } from 'react';
import { useAttributes } from '../ui/attributes.js';
import { ElementShell, type ShellProps } from '../ui/shell.js';
import { CHECKOUT_PROPS, parseCheckoutProps, type CheckoutProps } from './attributes.js';
import { CheckoutView } from './CheckoutView.js';
import { checkoutCss } from './styles.js';

/** The element's root component. */
export function Checkout(props: CheckoutProps & ShellProps): ReactNode {
  const { options, notices } = useAttributes('channel-checkout', CHECKOUT_PROPS, props, parseCheckoutProps);
  return (
    <ElementShell container={props.container} lang={props.lang} css={checkoutCss}>
      {() => <CheckoutView options={options} notices={notices} />}
    </ElementShell>
  );
}
