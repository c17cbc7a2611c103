/** Panels every view shows the same way: the loading panel and the notices of ignored attributes. */
import type { ReactNode } from 'react';
import type { AttributeNotice } from './attributes.js';
import { useElement } from './context.js';

/** A loading panel: a polite status with its text (and a spinner where the view wants one). */
export function LoadingPanel(props: { text?: string | undefined; part?: string; spinner?: boolean }): ReactNode {
  const { t } = useElement();
  return (
    <div className="panel" role="status" aria-live="polite" part={props.part ?? 'loading'}>
      {props.spinner ? <span className="spinner" aria-hidden="true" /> : null}
      <p>{props.text ?? t('common.loading')}</p>
    </div>
  );
}

/** The translated notices of ignored attribute values. */
export function AttributeNotices(props: { notices: readonly AttributeNotice[] }): ReactNode {
  const { t } = useElement();
  return props.notices.map((n) => (
    <p className="notice" key={n.name} part="notice">
      {t('errors.badAttribute', { name: n.name, value: n.value, expected: n.expected })}
    </p>
  ));
}
