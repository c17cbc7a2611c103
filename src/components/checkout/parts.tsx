/** Small pieces shared by the checkout's steps: step headings, loading lines, prices. */
import { type ReactNode } from 'react';
import { LoadingPanel } from '../ui/panels.js';
import { useElement } from '../ui/shell.js';
// The player's English texts (`player.*`) travel with its code.
import '../../i18n/player.js';

/** A step's heading. The element moves focus to it when the step changes (not on first render). */
export function StepTitle(props: { id?: string; children: ReactNode }): ReactNode {
  return (
    <h2 id={props.id} className="step-title" tabIndex={-1} data-step-title="" part="title">
      {props.children}
    </h2>
  );
}

/** A polite loading line with a spinner (the shared loading state, as a line). */
export function Loading(props: { text: string; part?: string }): ReactNode {
  return <LoadingPanel variant="line" spinner text={props.text} part={props.part} />;
}

/** A Back button. */
export function BackButton(props: { onClick(): void; label: string; disabled?: boolean }): ReactNode {
  return (
    <button type="button" className="btn secondary" part="back" disabled={props.disabled} onClick={props.onClick}>
      {props.label}
    </button>
  );
}

/** The label of an offer's kind: the same words as the player's paywall. */
export function kindKey(kind: 'event' | 'package' | 'team' | 'monthly' | 'annual'): string {
  return `player.paywall.${kind}`;
}

/** A Retry button (the `retry` part). */
export function RetryButton(props: { onClick(): void; label?: string; secondary?: boolean }): ReactNode {
  const { t } = useElement();
  return (
    <button type="button" className={props.secondary ? 'btn secondary' : 'btn'} part="retry" onClick={props.onClick}>
      {props.label ?? t('common.retry')}
    </button>
  );
}

/** A failure that can be tried again: what failed, why (when known), Retry, and any other way out. */
export function Failure(props: {
  what: string;
  why?: string | undefined;
  onRetry(): void;
  children?: ReactNode;
}): ReactNode {
  return (
    <div className="step error" role="alert" part="error">
      <p>{props.what}</p>
      {props.why ? <p className="detail">{props.why}</p> : null}
      <div className="actions">
        <RetryButton onClick={props.onRetry} />
        {props.children}
      </div>
    </div>
  );
}
