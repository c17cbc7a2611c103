/**
 * The actions of a subscription order in `<channel-profile>`'s orders list: "Cancel auto-renewal" (asks first in a
 * modal dialog, then `stripe/unsubscribe`: processing, then finished) and "Manage cards and invoices" (the customer
 * portal, opened in this tab). Texts come from the `checkout` namespace.
 */
import { env } from '../../lib/env.js';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Order } from '../../api/account-schemas.js';
import { isCancel } from '../../api/errors.js';
import { cancelAutoRenewal, cancellationFinished, customerPortalUrl } from '../../stores/commerce/orders.js';
import { Modal } from '../checkout/Dialog.js';
import { c, CheckoutTexts } from '../checkout/texts.js';
import { useElement } from '../ui/shell.js';

type Cancel = 'idle' | 'confirm' | 'processing' | 'finished' | 'error';

/** Cancel auto-renewal and the customer portal for one subscription order. */
export function SubscriptionActions({ order, onCancelled }: { order: Order; onCancelled?: () => void }): ReactNode {
  if (order.type !== 'subscription') return null;
  return (
    <CheckoutTexts>
      <Actions order={order} onCancelled={onCancelled} />
    </CheckoutTexts>
  );
}

function Actions({ order, onCancelled }: { order: Order; onCancelled: (() => void) | undefined }): ReactNode {
  const { t } = useElement();
  const [cancel, setCancel] = useState<Cancel>(order.auto_renewal === 'cancelled' ? 'finished' : 'idle');
  const [portal, setPortal] = useState<'idle' | 'opening' | 'error'>('idle');
  const controller = useRef<AbortController>();
  const cancelButton = useRef<HTMLButtonElement>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const confirm = async () => {
    setCancel('processing');
    const mine = (controller.current = new AbortController());
    try {
      const status = await cancelAutoRenewal(order.id);
      if (status !== 'finished') {
        const settled = await cancellationFinished(order.id, mine.signal);
        if (!settled) throw new Error('auto-renewal still active');
      }
      if (!mine.signal.aborted) {
        setCancel('finished');
        onCancelled?.();
      }
    } catch (error) {
      if (!isCancel(error) && !mine.signal.aborted) setCancel('error');
    }
  };

  const openPortal = async () => {
    setPortal('opening');
    try {
      env()
        .location()
        ?.assign(await customerPortalUrl());
    } catch {
      setPortal('error');
    }
  };

  const renewing = order.auto_renewal === 'active' && cancel !== 'finished';
  return (
    <div className="actions" part="subscription-actions">
      {renewing ? (
        <button
          ref={cancelButton}
          type="button"
          className="btn secondary"
          part="button cancel-renewal"
          disabled={cancel === 'processing'}
          onClick={() => setCancel('confirm')}
        >
          {t(c('manage.cancel'))}
        </button>
      ) : null}
      <button
        type="button"
        className="btn secondary"
        part="button customer-portal"
        disabled={portal === 'opening'}
        onClick={() => void openPortal()}
      >
        {portal === 'opening' ? t(c('manage.opening')) : t(c('manage.portal'))}
      </button>
      {cancel === 'processing' ? (
        <p className="detail" role="status" part="renewal-status">
          {t(c('manage.processing'))}
        </p>
      ) : cancel === 'finished' && order.auto_renewal === 'active' ? (
        <p className="message" role="status" part="renewal-status">
          {t(c('manage.finished'))}
        </p>
      ) : cancel === 'error' ? (
        <p className="form-error" role="alert" part="renewal-error">
          {t(c('manage.error'))}
        </p>
      ) : null}
      {portal === 'error' ? (
        <p className="form-error" role="alert" part="portal-error">
          {t(c('manage.portalError'))}
        </p>
      ) : null}
      {cancel === 'confirm' ? (
        <Modal
          role="alertdialog"
          part="confirm-dialog"
          title={t(c('manage.confirmTitle'))}
          onClose={() => setCancel('idle')}
          actions={
            <>
              <button type="button" className="btn danger" part="button confirm-cancel" onClick={() => void confirm()}>
                {t(c('manage.confirm'))}
              </button>
              <button
                type="button"
                className="btn secondary"
                part="button keep"
                data-autofocus=""
                onClick={() => setCancel('idle')}
              >
                {t(c('manage.keep'))}
              </button>
            </>
          }
        >
          <p>{t(c('manage.confirmText'))}</p>
        </Modal>
      ) : null}
    </div>
  );
}
