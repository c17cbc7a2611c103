/**
 * The guest's steps in the profile view: sign-in (with social providers), registration, the verify notice and
 * the reset request. Each step is a form over one action of the account store. (The pages of emailed links and
 * social callbacks are in `links.tsx`.)
 */
import { useContext, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { SocialProvider } from '../../api/account-schemas.js';
import {
  headline,
  login,
  register,
  requestPasswordReset,
  resendVerification,
  socialProviders,
  startSocial,
  type Msg,
  type Outcome,
  type RegisterInput,
} from '../../stores/account.js';
import { useElement } from '../ui/shell.js';
import {
  CheckField,
  FormAlert,
  NewPasswordFields,
  Status,
  StepFocus,
  StepHeading,
  Submit,
  TextField,
  NameFields,
  useForm,
  useMsg,
} from './form.js';

/** A message shown on top of a step that follows another (password changed, sign-in cancelled). */
export interface Flash {
  message: Msg;
  tone: 'status' | 'alert';
}

/** Where a guest can go from a step. */
export type GuestView =
  | { name: 'sign-in'; email?: string | undefined; flash?: Flash | undefined }
  | { name: 'register' }
  | { name: 'reset-request'; email?: string | undefined };

const k = (key: string) => `forms:account.${key}`;

function FlashLine({ flash }: { flash: Flash | undefined }): ReactNode {
  const text = useMsg();
  if (!flash) return null;
  return flash.tone === 'alert' ? <FormAlert message={flash.message} /> : <Status>{text(flash.message)}</Status>;
}

/** Sign-in by email and password, "Forgot password?", the social providers, and the way to registration. */
export function SignIn(props: {
  email?: string | undefined;
  flash?: Flash | undefined;
  /** Bumped by each sign-in request (`$signInRequest`): focus the email field. */
  focusEmail: number;
  onSignedIn(): void;
  go(view: GuestView): void;
}): ReactNode {
  const { t } = useElement();
  const [email, setEmail] = useState(props.email ?? '');
  const [password, setPassword] = useState('');
  const emailRef = useRef<HTMLInputElement>(null);
  const form = useForm(['email', 'password']);
  const titleId = useId();

  useEffect(() => {
    if (props.focusEmail) emailRef.current?.focus();
  }, [props.focusEmail]);

  const moved = useContext(StepFocus);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // A sign-in shows the profile as soon as the user is set, before this form hears back: its heading takes focus.
    moved.current = true;
    const outcome = await form.run(() => login({ email, password }));
    if (outcome?.ok) props.onSignedIn();
    else if (outcome) moved.current = false;
  };

  return (
    <section className="step" aria-labelledby={titleId} part="sign-in">
      <StepHeading id={titleId}>{t(k('signIn.title'))}</StepHeading>
      <FlashLine flash={props.flash} />
      <form ref={form.ref} className="form" noValidate onSubmit={submit}>
        <FormAlert message={form.message} />
        <TextField
          name="email"
          type="email"
          label={t(k('signIn.email'))}
          value={email}
          onChange={setEmail}
          autoComplete="email"
          error={form.error('email')}
          required
          inputRef={emailRef}
        />
        <TextField
          name="password"
          type="password"
          label={t(k('signIn.password'))}
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          error={form.error('password')}
          required
        />
        <div className="actions">
          <Submit busy={form.busy} label={t(k('signIn.submit'))} busyLabel={t(k('signIn.busy'))} />
          <button
            type="button"
            className="link"
            part="forgot"
            onClick={() => props.go({ name: 'reset-request', email })}
          >
            {t(k('signIn.forgot'))}
          </button>
        </div>
      </form>
      <SocialButtons />
      <p className="switch">
        {t(k('signIn.noAccount'))}{' '}
        <button type="button" className="link" part="to-register" onClick={() => props.go({ name: 'register' })}>
          {t(k('signIn.toRegister'))}
        </button>
      </p>
    </section>
  );
}

/** "Continue with Google / Facebook" for the providers the channel offers. */
function SocialButtons(): ReactNode {
  const { t } = useElement();
  const text = useMsg();
  const providers = socialProviders();
  const [leaving, setLeaving] = useState<SocialProvider>();
  const [failure, setFailure] = useState<Msg>();
  if (providers.length === 0) return null;
  const start = async (provider: SocialProvider) => {
    setLeaving(provider);
    setFailure(undefined);
    const outcome = await startSocial(provider);
    if (!outcome.ok) {
      setLeaving(undefined);
      setFailure(outcome.failure.message ?? outcome.failure.fallback);
    }
  };
  return (
    <div className="social" role="group" aria-label={t(k('signIn.social'))} part="social">
      <p className="or" aria-hidden="true">
        {t(k('signIn.or'))}
      </p>
      {providers.map((provider) => (
        <button
          key={provider}
          type="button"
          className={`btn secondary social-${provider}`}
          part={`social-${provider}`}
          disabled={leaving !== undefined}
          onClick={() => void start(provider)}
        >
          {t(k(`signIn.${provider}`))}
        </button>
      ))}
      {leaving ? (
        <Status>{t(k('signIn.leaving'), { provider: leaving === 'google' ? 'Google' : 'Facebook' })}</Status>
      ) : null}
      {failure ? (
        <p className="form-error" role="alert" part="form-error">
          {text(failure)}
        </p>
      ) : null}
    </div>
  );
}

const REGISTER_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'password',
  'password_confirmation',
  'terms',
  'news',
] as const;

/** Registration: names, email, password twice, the required terms and the optional news opt-in. */
export function Register(props: { onRegistered(): void; go(view: GuestView): void }): ReactNode {
  const { t } = useElement();
  const [values, setValues] = useState<RegisterInput>({
    first_name: '',
    last_name: '',
    email: '',
    password: '',
    password_confirmation: '',
    terms: false,
    news: false,
  });
  const set =
    <K extends keyof RegisterInput>(name: K) =>
    (value: RegisterInput[K]) =>
      setValues((v) => ({ ...v, [name]: value }));
  const form = useForm(REGISTER_FIELDS);
  const titleId = useId();

  const moved = useContext(StepFocus);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    moved.current = true;
    const outcome = await form.run(() => register(values));
    if (outcome?.ok) props.onRegistered();
    else if (outcome) moved.current = false;
  };

  return (
    <section className="step" aria-labelledby={titleId} part="register">
      <StepHeading id={titleId}>{t(k('register.title'))}</StepHeading>
      <form ref={form.ref} className="form" noValidate onSubmit={submit}>
        <FormAlert message={form.message} />
        <NameFields
          first={values.first_name}
          last={values.last_name}
          labels={[t(k('register.firstName')), t(k('register.lastName'))]}
          onChange={(name, value) => set(name)(value)}
          error={(name) => form.error(name)}
        />
        <TextField
          name="email"
          type="email"
          label={t(k('register.email'))}
          value={values.email}
          onChange={set('email')}
          autoComplete="email"
          error={form.error('email')}
          required
        />
        <NewPasswordFields
          labels={{ password: t(k('register.password')), confirmation: t(k('register.confirmation')) }}
          password={values.password}
          confirmation={values.password_confirmation}
          onPassword={set('password')}
          onConfirmation={set('password_confirmation')}
          form={form}
          required
        />
        <CheckField
          name="terms"
          label={t(k('register.terms'))}
          checked={values.terms}
          onChange={set('terms')}
          error={form.error('terms')}
          required
        />
        <CheckField
          name="news"
          label={t(k('register.news'))}
          checked={values.news}
          onChange={set('news')}
          error={form.error('news')}
        />
        <div className="actions">
          <Submit busy={form.busy} label={t(k('register.submit'))} busyLabel={t(k('register.busy'))} />
        </div>
      </form>
      <p className="switch">
        {t(k('register.haveAccount'))}{' '}
        <button
          type="button"
          className="link"
          part="to-sign-in"
          onClick={() => props.go({ name: 'sign-in', email: values.email })}
        >
          {t(k('register.toSignIn'))}
        </button>
      </p>
    </section>
  );
}

/**
 * "Send it again": the signed-in user's verification link, with its outcome ('Your email already verified' when the
 * address was verified meanwhile; the user here then is too).
 */
export function ResendButton(): ReactNode {
  const { t } = useElement();
  const text = useMsg();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome<{ already: boolean }>>();
  const resend = async () => {
    setBusy(true);
    setOutcome(await resendVerification());
    setBusy(false);
  };
  return (
    <>
      <button type="button" className="btn secondary" part="resend" disabled={busy} onClick={() => void resend()}>
        {busy ? t(k('verifyNotice.resending')) : t(k('verifyNotice.resend'))}
      </button>
      {outcome?.ok ? (
        <Status>{outcome.value.already ? t('forms:server.alreadyVerified') : t(k('verifyNotice.resent'))}</Status>
      ) : null}
      {outcome && !outcome.ok ? (
        <p className="form-error" role="alert" part="form-error">
          {text(headline(outcome.failure))}
        </p>
      ) : null}
    </>
  );
}

/** After registration: "We sent a link to {email}", "Send it again", Continue. */
export function VerifyNotice(props: { email: string; onContinue(): void }): ReactNode {
  const { t } = useElement();
  const titleId = useId();
  return (
    <section className="step" aria-labelledby={titleId} part="verify-notice">
      <StepHeading id={titleId}>{t(k('verifyNotice.title'))}</StepHeading>
      <p>{t(k('verifyNotice.text'), { email: props.email })}</p>
      <div className="actions">
        <ResendButton />
        <button type="button" className="btn" part="button continue" onClick={props.onContinue}>
          {t(k('verifyNotice.continue'))}
        </button>
      </div>
    </section>
  );
}

/** "Forgot password?": asks for a reset link (the answer never tells whether the email has an account). */
export function ResetRequest(props: { email?: string | undefined; go(view: GuestView): void }): ReactNode {
  const { t } = useElement();
  const [email, setEmail] = useState(props.email ?? '');
  const [sentTo, setSentTo] = useState<string>();
  const form = useForm(['email']);
  const titleId = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const outcome = await form.run(() => requestPasswordReset(email));
    if (outcome?.ok) setSentTo(email.trim());
  };
  return (
    <section className="step" aria-labelledby={titleId} part="reset-request">
      <StepHeading id={titleId}>{t(k('resetRequest.title'))}</StepHeading>
      {sentTo ? (
        <Status>{t(k('resetRequest.sent'), { email: sentTo })}</Status>
      ) : (
        <form ref={form.ref} className="form" noValidate onSubmit={submit}>
          <p>{t(k('resetRequest.text'))}</p>
          <FormAlert message={form.message} />
          <TextField
            name="email"
            type="email"
            label={t(k('resetRequest.email'))}
            value={email}
            onChange={setEmail}
            autoComplete="email"
            error={form.error('email')}
            required
          />
          <div className="actions">
            <Submit busy={form.busy} label={t(k('resetRequest.submit'))} busyLabel={t(k('resetRequest.busy'))} />
          </div>
        </form>
      )}
      <p className="switch">
        <button type="button" className="link" part="to-sign-in" onClick={() => props.go({ name: 'sign-in', email })}>
          {t(k('resetRequest.back'))}
        </button>
      </p>
    </section>
  );
}
