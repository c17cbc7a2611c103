/**
 * The pages of emailed links and social callbacks in the profile view: verify email, new password (reset link),
 * confirm deletion, and the social callback. Each runs one action of the account store.
 */
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { AccountRoute } from '../../lib/account-routes.js';
import {
  completeSocial,
  confirmAccountDeletion,
  isExpiredReset,
  resetPassword,
  verifyEmail,
  type Outcome,
} from '../../stores/account.js';
import { useElement } from '../ui/shell.js';
import type { GuestView } from './auth.js';
import { FormAlert, NewPasswordFields, Status, StepHeading, Submit, useForm } from './form.js';

const k = (key: string) => `forms:account.${key}`;

/** The page of a reset link: a new password and its confirmation; an expired link offers a new one. */
export function PasswordReset(props: {
  route: Extract<AccountRoute, { kind: 'password-reset' }>;
  go(view: GuestView): void;
}): ReactNode {
  const { t } = useElement();
  const { route } = props;
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [expired, setExpired] = useState(false);
  const form = useForm(['password', 'password_confirmation']);
  const titleId = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const outcome = await form.run(() =>
      resetPassword({ email: route.email, token: route.token, password, password_confirmation: confirmation }),
    );
    if (!outcome) return;
    if (outcome.ok)
      props.go({ name: 'sign-in', email: route.email, flash: { message: { key: k('reset.done') }, tone: 'status' } });
    else setExpired(isExpiredReset(outcome.failure));
  };
  return (
    <section className="step" aria-labelledby={titleId} part="reset-password">
      <StepHeading id={titleId}>{t(k('reset.title'))}</StepHeading>
      {route.email ? <p className="detail">{route.email}</p> : null}
      <form ref={form.ref} className="form" noValidate onSubmit={submit}>
        <FormAlert message={form.message}>
          {expired ? (
            <button
              type="button"
              className="btn secondary"
              part="new-link"
              onClick={() => props.go({ name: 'reset-request', email: route.email })}
            >
              {t(k('reset.newLink'))}
            </button>
          ) : null}
        </FormAlert>
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="email" autoComplete="username" value={route.email} readOnly hidden />
        <NewPasswordFields
          labels={{ password: t(k('reset.password')), confirmation: t(k('reset.confirmation')) }}
          password={password}
          confirmation={confirmation}
          onPassword={setPassword}
          onConfirmation={setConfirmation}
          form={form}
          required
        />
        <div className="actions">
          <Submit busy={form.busy} label={t(k('reset.submit'))} busyLabel={t(k('reset.busy'))} />
        </div>
      </form>
    </section>
  );
}

/** Runs an action once when a step opens; answers its outcome once in. */
function useOnOpen<T>(action: () => Promise<Outcome<T>>): Outcome<T> | undefined {
  const [outcome, setOutcome] = useState<Outcome<T>>();
  useEffect(() => {
    let live = true;
    action().then(
      (result) => live && setOutcome(result),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // Once, when the step opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return outcome;
}

/** The page of a verification link: verifies at once, then says how it went. */
export function VerifyEmail(props: {
  route: Extract<AccountRoute, { kind: 'verify-email' }>;
  onContinue(): void;
}): ReactNode {
  const { t } = useElement();
  const outcome = useOnOpen(() => verifyEmail(props.route));
  const titleId = useId();
  return (
    <section className="step" aria-labelledby={titleId} part="verify-email">
      <StepHeading id={titleId}>{t(k('verifyEmail.title'))}</StepHeading>
      {!outcome ? (
        <Status part="message loading">{t(k('verifyEmail.busy'))}</Status>
      ) : outcome.ok ? (
        <Status>{t(k('verifyEmail.done'))}</Status>
      ) : (
        <FormAlert message={outcome.failure.message ?? outcome.failure.fallback} />
      )}
      {outcome ? (
        <div className="actions">
          <button type="button" className="btn" part="button continue" onClick={props.onContinue}>
            {t(k('verifyEmail.continue'))}
          </button>
        </div>
      ) : null}
    </section>
  );
}

/** The page of a deletion link: "Delete your account {email}?" with Confirm and Cancel. */
export function ConfirmDeletion(props: {
  route: Extract<AccountRoute, { kind: 'confirm-deletion' }>;
  onDeleted(signedOut: boolean): void;
  onContinue(): void;
}): ReactNode {
  const { t } = useElement();
  const [deleted, setDeleted] = useState(false);
  const form = useForm([]);
  const titleId = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const outcome = await form.run(() => confirmAccountDeletion(props.route));
    if (outcome?.ok) {
      setDeleted(true);
      props.onDeleted(outcome.value.signedOut);
    }
  };
  return (
    <section className="step" aria-labelledby={titleId} part="confirm-deletion">
      <StepHeading id={titleId}>{t(k('deletion.title'))}</StepHeading>
      {deleted ? (
        <>
          <Status>{t(k('deletion.done'))}</Status>
          <div className="actions">
            <button type="button" className="btn" part="button continue" onClick={props.onContinue}>
              {t(k('verifyEmail.continue'))}
            </button>
          </div>
        </>
      ) : (
        <form ref={form.ref} className="form" noValidate onSubmit={submit}>
          <p>{t(k('deletion.confirmText'), { email: props.route.email })}</p>
          <FormAlert message={form.message} />
          <div className="actions">
            <Submit busy={form.busy} danger label={t(k('deletion.confirm'))} busyLabel={t(k('deletion.deleting'))} />
            <button type="button" className="btn secondary" part="button cancel" onClick={props.onContinue}>
              {t(k('deletion.cancel'))}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/**
 * The social callback page: completes the sign-in at once; then back to the page the viewer left (or the
 * profile here), or on failure the sign-in step with the reason.
 */
export function SocialCallback(props: {
  route: Extract<AccountRoute, { kind: 'social-callback' }>;
  onSignedIn(returnTo: string | undefined): void;
  go(view: GuestView): void;
}): ReactNode {
  const { t } = useElement();
  const outcome = useOnOpen(() => completeSocial(props.route));
  const titleId = useId();
  const returning = outcome?.ok && outcome.value.returnTo;
  useEffect(() => {
    if (!outcome) return;
    if (outcome.ok) props.onSignedIn(outcome.value.returnTo);
    else
      props.go({
        name: 'sign-in',
        flash: { message: outcome.failure.message ?? { key: k('social.failed') }, tone: 'alert' },
      });
    // Once, when the outcome is in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [outcome]);
  return (
    <section className="step" aria-labelledby={titleId} part="social-callback">
      <StepHeading id={titleId}>{t(k('social.title'))}</StepHeading>
      <Status part="message loading">{returning ? t(k('social.returning')) : t(k('social.busy'))}</Status>
    </section>
  );
}
