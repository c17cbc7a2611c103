/**
 * The pages of emailed links and social callbacks in the profile view: verify email, new password (reset link),
 * confirm deletion, and the social callback. Each runs one action of the account store; each says what a signed-in
 * viewer needs to know (whose link it is, who stays signed in).
 */
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { AccountRoute } from '../../lib/account-routes.js';
import type { User } from '../../api/channel-schemas.js';
import {
  completeSocial,
  confirmAccountDeletion,
  headline,
  isExpiredReset,
  resetPassword,
  sameEmail,
  verifyEmail,
  type Msg,
  type Outcome,
} from '../../stores/account.js';
import { useElement } from '../ui/shell.js';
import { ResendButton, type GuestView } from './auth.js';
import { FormAlert, NewPasswordFields, SignOutButton, Status, StepHeading, Submit, useForm, useMsg } from './form.js';

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

/**
 * The page of a reset link for a signed-in viewer. Auth pages are closed to a signed-in viewer (spec section 6), so
 * the form waits: the page says whose link it is and who is signed in here, and offers to sign out and go on with
 * the link (the new-password form then shows) or to stay signed in.
 */
export function ResetWhileSignedIn(props: {
  route: Extract<AccountRoute, { kind: 'password-reset' }>;
  user: User;
  onSignOut(): Promise<void>;
  onStay(): void;
}): ReactNode {
  const { t } = useElement();
  const { route, user } = props;
  const titleId = useId();
  const mine = sameEmail(user.email, route.email);
  return (
    <section className="step" aria-labelledby={titleId} part="reset-password">
      <StepHeading id={titleId}>{t(k('reset.title'))}</StepHeading>
      <p part="signed-in-as">
        {mine
          ? t(k('reset.signedInSame'), { email: user.email })
          : t(k('reset.signedInOther'), { email: route.email, current: user.email })}
      </p>
      <div className="actions">
        {/* Signed out, this step gives way to the form. */}
        <SignOutButton
          label={t(k('reset.signOut'))}
          className="btn"
          part="button sign-out"
          onSignOut={props.onSignOut}
        />
        <button type="button" className="btn secondary" part="button continue" onClick={props.onStay}>
          {t(k('reset.stay'))}
        </button>
      </div>
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the step opens: `action` is a new closure every render and must not run again
  }, []);
  return outcome;
}

/** The spec's text for a verification link that did not verify. */
const VERIFICATION_FAILED: Msg = { key: 'forms:server.verificationFailed' };

/**
 * The page of a verification link: verifies at once (whoever is signed in: the link proves the address), then
 * says how it went: verified (naming the address when another account is signed in here), 'Your email already
 * verified', or 'Verification of your email address failed' with the reason when there is another, and "Send it
 * again" for the signed-in owner still unverified.
 */
export function VerifyEmail(props: {
  route: Extract<AccountRoute, { kind: 'verify-email' }>;
  user: User | undefined;
  onContinue(): void;
}): ReactNode {
  const { t } = useElement();
  const text = useMsg();
  const { route, user } = props;
  const outcome = useOnOpen(() => verifyEmail(route));
  const titleId = useId();
  const other = user && !sameEmail(user.email, route.email) ? user.email : undefined;
  const reason = outcome && !outcome.ok ? headline(outcome.failure) : undefined;
  return (
    <section className="step" aria-labelledby={titleId} part="verify-email">
      <StepHeading id={titleId}>{t(k('verifyEmail.title'))}</StepHeading>
      {!outcome ? (
        <Status part="message loading">{t(k('verifyEmail.busy'))}</Status>
      ) : outcome.ok ? (
        <Status>
          {outcome.value.already
            ? t('forms:server.alreadyVerified')
            : other
              ? t(k('verifyEmail.doneOther'), { email: route.email, current: other })
              : t(k('verifyEmail.done'))}
        </Status>
      ) : (
        <FormAlert message={VERIFICATION_FAILED}>
          {reason && reason.key !== VERIFICATION_FAILED.key ? <p className="detail">{text(reason)}</p> : null}
        </FormAlert>
      )}
      {outcome ? (
        <div className="actions">
          {!outcome.ok && user && !other && !user.email_verified ? <ResendButton /> : null}
          <button type="button" className="btn" part="button continue" onClick={props.onContinue}>
            {t(k('verifyEmail.continue'))}
          </button>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The page of a deletion link: "Delete your account {email}?" with Confirm and Cancel. The link is all it takes,
 * signed in or not: the signed-in account is signed out when it is the one deleted; when it is another, the page
 * says that one stays.
 */
export function ConfirmDeletion(props: {
  route: Extract<AccountRoute, { kind: 'confirm-deletion' }>;
  user: User | undefined;
  onDeleted(signedOut: boolean): void;
  onContinue(): void;
}): ReactNode {
  const { t } = useElement();
  const { route, user } = props;
  // Who was signed in when the viewer confirmed (the user is gone after deleting their own account).
  const [deleted, setDeleted] = useState<{ stays: string | undefined }>();
  const form = useForm([]);
  const titleId = useId();
  const other = user && !sameEmail(user.email, route.email) ? user.email : undefined;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const outcome = await form.run(() => confirmAccountDeletion(route));
    if (outcome?.ok) {
      setDeleted({ stays: outcome.value.signedOut ? undefined : other });
      props.onDeleted(outcome.value.signedOut);
    }
  };
  return (
    <section className="step" aria-labelledby={titleId} part="confirm-deletion">
      <StepHeading id={titleId}>{t(k('deletion.title'))}</StepHeading>
      {deleted ? (
        <>
          <Status>
            {deleted.stays
              ? t(k('deletion.doneOther'), { email: route.email, current: deleted.stays })
              : t(k('deletion.done'))}
          </Status>
          <div className="actions">
            <button type="button" className="btn" part="button continue" onClick={props.onContinue}>
              {t(k('verifyEmail.continue'))}
            </button>
          </div>
        </>
      ) : (
        <form ref={form.ref} className="form" noValidate onSubmit={submit}>
          <p>{t(k('deletion.confirmText'), { email: route.email })}</p>
          {other ? (
            <p className="detail" part="signed-in-as">
              {t(k('deletion.otherAccount'), { current: other })}
            </p>
          ) : null}
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the outcome is in: the props' callbacks are new every render
  }, [outcome]);
  return (
    <section className="step" aria-labelledby={titleId} part="social-callback">
      <StepHeading id={titleId}>{t(k('social.title'))}</StepHeading>
      <Status part="message loading">{returning ? t(k('social.returning')) : t(k('social.busy'))}</Status>
    </section>
  );
}
