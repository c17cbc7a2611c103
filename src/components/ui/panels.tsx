/** Panels every view shows the same way: the loading panel and the notices of ignored attributes. */
import type { ReactNode } from 'react';
import type { AttributeNotice } from './attributes.js';
import { useElement } from './context.js';

/**
 * The one loading state of every view: a polite status with its text (and a spinner where the view wants one),
 * as a panel that stands for the whole view, or as a `line` inside a section (`className` is the line's look).
 */
export function LoadingPanel(props: {
  text?: string | undefined;
  part?: string;
  spinner?: boolean;
  variant?: 'panel' | 'line';
  className?: string;
}): ReactNode {
  const { t } = useElement();
  if (props.variant === 'line') {
    const text = props.text ?? t('common.loading');
    return (
      <p className={props.className ?? 'status'} role="status" part={props.part ?? 'loading'}>
        {props.spinner ? <span className="spinner" aria-hidden="true" /> : null}
        {props.spinner ? <span>{text}</span> : text}
      </p>
    );
  }
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
