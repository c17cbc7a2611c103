/**
 * What a viewer can do with one of their clips, wherever it shows (the player's clip maker, the profile's clips):
 * its state (progress while it is being made, ready, failed with Retry) and its actions: Download (with the
 * `download_clip` capability), Copy link and Share (the browser's share sheet where it has one), and Delete after
 * an inline confirmation. Every action is a store action; this renders their outcomes.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Clip } from '../../api/account-schemas.js';
import type { Msg } from '../../stores/account/messages.js';
import { hasCapability } from '../../stores/commerce/access.js';
import {
  canShareClips,
  clipShareUrl,
  clipStatus,
  copyClipLink,
  deleteClip,
  downloadClip,
  remakeClip,
  shareClipLink,
} from '../../stores/clips.js';
import { $user } from '../../stores/session.js';
import { saveFile } from '../ui/download.js';
import { useElement } from '../ui/shell.js';
import { useViewHost } from '../ui/view.js';

/** Translates a store message. */
function useText(): (message: Msg) => string {
  const { t } = useElement();
  return (message) => t(message.key, message.values);
}

/** A clip being made: its progress bar (indeterminate while it waits its turn) and how far it is. */
export function ClipProgress(props: { clip: Clip }): ReactNode {
  const { t } = useElement();
  const id = useId();
  const { clip } = props;
  const queued = clip.status.toLowerCase() === 'queued';
  const percent = Math.max(0, Math.min(100, Math.round(clip.progress ?? 0)));
  return (
    <div className="clip-progress" part="clip-progress">
      <label htmlFor={id}>{t('clips:progress.label', { name: clip.name })}</label>
      <progress id={id} max={100} value={queued ? undefined : percent} />
      <span className="detail">{queued ? t('clips:progress.queued') : t('clips:progress.percent', { percent })}</span>
    </div>
  );
}

/**
 * A clip's state and actions: progress, ready with its actions, or failed with Retry. `quiet`: no "is ready"
 * sentence (a list, whose rows say their state already).
 */
export function ClipOutcome(props: {
  clip: Clip;
  onDeleted?: (clip: Clip) => void;
  quiet?: boolean;
  children?: ReactNode;
}): ReactNode {
  const { t } = useElement();
  const { clip } = props;
  const status = clipStatus(clip);
  return (
    <div className="clip-outcome" part="clip-outcome" data-status={status}>
      {status === 'pending' ? <ClipProgress clip={clip} /> : null}
      {status === 'done' && !props.quiet ? (
        <p className="clip-ready" role="status" part="clip-ready">
          {t('clips:progress.ready', { name: clip.name })}
        </p>
      ) : null}
      {status === 'failed' ? <ClipFailed clip={clip} /> : null}
      <div className="clip-actions" part="clip-actions">
        {status === 'done' ? <ClipDownload clip={clip} /> : null}
        {status === 'done' ? <ClipShare clip={clip} /> : null}
        <ClipDelete clip={clip} pending={status === 'pending'} onDeleted={props.onDeleted} />
        {props.children}
      </div>
    </div>
  );
}

/** 'Your clip creation failed', with Retry (the same clip made again). */
function ClipFailed(props: { clip: Clip }): ReactNode {
  const { t } = useElement();
  const text = useText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Msg>();
  const retry = async () => {
    setBusy(true);
    setError(undefined);
    const outcome = await remakeClip(props.clip);
    if (!outcome.ok) {
      setBusy(false);
      setError(outcome.failure.message ?? outcome.failure.fallback ?? Object.values(outcome.failure.fields)[0]);
    }
  };
  return (
    <div className="clip-failed" part="clip-failed">
      <p role="alert">{t('clips:progress.failed')}</p>
      <button type="button" className="btn" part="button clip-retry" disabled={busy} onClick={() => void retry()}>
        {t('clips:progress.retry')}
      </button>
      {error ? <p role="alert">{text(error)}</p> : null}
    </div>
  );
}

/** Download: the clip's MP4 (only with the `download_clip` capability). */
function ClipDownload(props: { clip: Clip }): ReactNode {
  const { t } = useElement();
  const text = useText();
  const user = useStore($user);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Msg>();
  if (!hasCapability(user, 'download_clip')) return null;
  const download = async () => {
    setBusy(true);
    setError(undefined);
    const outcome = await downloadClip(props.clip);
    setBusy(false);
    if (outcome.ok) saveFile(outcome.value);
    else setError(outcome.failure.message ?? outcome.failure.fallback ?? { key: 'clips:actions.downloadError' });
  };
  return (
    <>
      <button
        type="button"
        className="btn secondary"
        part="button clip-download"
        aria-label={t('clips:actions.downloadLabel', { name: props.clip.name })}
        disabled={busy}
        onClick={() => void download()}
      >
        {busy ? t('clips:actions.downloading') : t('clips:actions.download')}
      </button>
      {error ? (
        <p className="clip-error" role="alert" part="clip-error">
          {text(error)}
        </p>
      ) : null}
    </>
  );
}

/** Copy link (with a visible confirmation, or the link to copy by hand) and the browser's share sheet. */
function ClipShare(props: { clip: Clip }): ReactNode {
  const { t } = useElement();
  const view = useViewHost();
  const inputId = useId();
  const [copied, setCopied] = useState<boolean>();
  const url = clipShareUrl(props.clip, view.siteHref);
  if (!url) return null;
  const { name } = props.clip;
  return (
    <>
      <button
        type="button"
        className="btn secondary"
        part="button clip-copy"
        aria-label={t('clips:actions.copyLabel', { name })}
        onClick={() => void copyClipLink(url).then(setCopied)}
      >
        {t('clips:actions.copy')}
      </button>
      {canShareClips() ? (
        <button
          type="button"
          className="btn secondary"
          part="button clip-share"
          aria-label={t('clips:actions.shareLabel', { name })}
          onClick={() => void shareClipLink(name, url)}
        >
          {t('clips:actions.share')}
        </button>
      ) : null}
      {copied === true ? (
        <p className="clip-note" role="status" part="clip-copied">
          {t('clips:actions.copied')}
        </p>
      ) : null}
      {copied === false ? (
        <div className="clip-link" part="clip-link">
          <p role="alert">{t('clips:actions.copyError')}</p>
          <label className="sr-only" htmlFor={inputId}>
            {t('clips:actions.link', { name })}
          </label>
          <input id={inputId} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        </div>
      ) : null}
    </>
  );
}

/** Delete, after an inline confirmation (Escape or Cancel go back to the Delete button). */
function ClipDelete(props: {
  clip: Clip;
  /** Still being made: the same two steps stop it (the server ends its cut) and keep nothing of it. */
  pending?: boolean;
  onDeleted?: ((clip: Clip) => void) | undefined;
}): ReactNode {
  const { t } = useElement();
  const text = useText();
  const [step, setStep] = useState<'idle' | 'confirm' | 'busy'>('idle');
  const [error, setError] = useState<Msg>();
  const deleteButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  // Where focus goes on the next step: the safe choice when the question appears, Delete when it is dismissed.
  const focusNext = useRef<'cancel' | 'delete' | undefined>(undefined);
  useEffect(() => {
    const target = focusNext.current === 'cancel' ? cancelButton : focusNext.current === 'delete' ? deleteButton : null;
    focusNext.current = undefined;
    target?.current?.focus();
  }, [step]);
  const questionId = useId();
  const { clip } = props;
  const ask = () => {
    focusNext.current = 'cancel';
    setStep('confirm');
  };
  const cancel = () => {
    focusNext.current = 'delete';
    setStep('idle');
  };
  const confirm = async () => {
    setStep('busy');
    setError(undefined);
    const outcome = await deleteClip(clip);
    if (outcome.ok) return props.onDeleted?.(clip);
    setStep('confirm');
    setError(outcome.failure.message ?? outcome.failure.fallback ?? { key: 'clips:actions.deleteError' });
  };
  if (step === 'idle') {
    return (
      <button
        ref={deleteButton}
        type="button"
        className="btn secondary"
        part={props.pending ? 'button clip-delete clip-stop' : 'button clip-delete'}
        aria-label={t(props.pending ? 'clips:actions.stopLabel' : 'clips:actions.deleteLabel', { name: clip.name })}
        onClick={ask}
      >
        {t(props.pending ? 'clips:actions.stop' : 'clips:actions.delete')}
      </button>
    );
  }
  return (
    <div
      className="clip-confirm"
      role="group"
      aria-labelledby={questionId}
      part="clip-confirm"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || step === 'busy') return;
        // Escape closes the confirmation only, not the panel around it.
        e.stopPropagation();
        cancel();
      }}
    >
      <p id={questionId}>
        {t(props.pending ? 'clips:actions.stopConfirm' : 'clips:actions.confirm', { name: clip.name })}
      </p>
      <button
        type="button"
        className="btn danger"
        part="button clip-confirm-delete"
        disabled={step === 'busy'}
        onClick={() => void confirm()}
      >
        {step === 'busy'
          ? t('clips:actions.deleting')
          : t(props.pending ? 'clips:actions.stopYes' : 'clips:actions.confirmYes')}
      </button>
      <button
        ref={cancelButton}
        type="button"
        className="btn secondary"
        part="button clip-cancel"
        disabled={step === 'busy'}
        onClick={cancel}
      >
        {t(props.pending ? 'clips:actions.keepMaking' : 'clips:actions.cancel')}
      </button>
      {error ? (
        <p className="clip-error" role="alert" part="clip-error">
          {text(error)}
        </p>
      ) : null}
    </div>
  );
}
