/**
 * Form pieces of `<channel-profile>`: labelled fields whose errors sit under them (aria-describedby,
 * aria-invalid, role="alert"), the form's own alert, status messages, step headings that take focus when a step
 * opens, and `useForm`, which runs one submission at a time and keeps what was typed after an error.
 */
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { formMessage, MIN_PASSWORD, type Failure, type Msg, type Outcome } from '../../stores/account.js';
import { useElement } from '../ui/shell.js';

/** Translates a message of the account store. */
export function useMsg(): (message: Msg) => string {
  const { t } = useElement();
  return (message) => t(message.key, message.values);
}

/**
 * Set when the viewer's own action changes the step: the next step heading to mount takes focus (a step shown
 * on page load, or because another element signed in, leaves focus where it is).
 */
export const StepFocus = createContext<{ current: boolean }>({ current: false });

/** A step's heading; it takes focus when the step was opened by the viewer. */
export function StepHeading(props: { children: ReactNode; id?: string; level?: 2 | 3 }): ReactNode {
  const moved = useContext(StepFocus);
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    ref.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the step opens: `moved` is a ref read then
  }, []);
  const Tag = props.level === 3 ? 'h3' : 'h2';
  return (
    <Tag ref={ref} id={props.id} tabIndex={-1} className="step-title" part="title">
      {props.children}
    </Tag>
  );
}

/** A form's state: busy while a submission is in flight, the last failure, and its messages. */
export interface FormState {
  ref: RefObject<HTMLFormElement>;
  busy: boolean;
  /** Runs a submission unless one is in flight; answers its outcome (undefined when it did not run). */
  run<T>(action: () => Promise<Outcome<T>>): Promise<Outcome<T> | undefined>;
  error(name: string): Msg | undefined;
  message: Msg | undefined;
  clear(): void;
}

/** The state of a form whose fields are `visible` (names as the API knows them). */
export function useForm(visible: readonly string[]): FormState {
  const ref = useRef<HTMLFormElement>(null);
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ failure: Failure; n: number }>();

  // After a failed submit, focus the first field in error, else the form's alert.
  useEffect(() => {
    if (!result) return;
    const form = ref.current;
    const target =
      form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('.form-error');
    target?.focus();
  }, [result]);

  return {
    ref,
    busy,
    async run(action) {
      if (inFlight.current) return undefined;
      inFlight.current = true;
      setBusy(true);
      try {
        const outcome = await action();
        setResult((last) => (outcome.ok ? undefined : { failure: outcome.failure, n: (last?.n ?? 0) + 1 }));
        return outcome;
      } catch {
        // Cancelled: nothing to show.
        return undefined;
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    },
    error: (name) => result?.failure.fields[name],
    message: result ? formMessage(result.failure, visible) : undefined,
    clear: () => setResult(undefined),
  };
}

/** The form's alert (a failure no field explains). */
export function FormAlert(props: { message: Msg | undefined; children?: ReactNode }): ReactNode {
  const text = useMsg();
  if (!props.message) return null;
  return (
    <div className="form-error" role="alert" tabIndex={-1} part="form-error">
      <p>{text(props.message)}</p>
      {props.children}
    </div>
  );
}

/** A sign-out button: disabled, and saying so, while the sign-out runs. */
export function SignOutButton(props: {
  label: string;
  className: string;
  part: string;
  onSignOut(): Promise<void>;
}): ReactNode {
  const { t } = useElement();
  const [leaving, setLeaving] = useState(false);
  return (
    <button
      type="button"
      className={props.className}
      part={props.part}
      disabled={leaving}
      onClick={() => {
        setLeaving(true);
        void props.onSignOut().finally(() => setLeaving(false));
      }}
    >
      {leaving ? t('forms:account.header.signingOut') : props.label}
    </button>
  );
}

/** A status line (success, progress). */
export function Status(props: { children: ReactNode; part?: string }): ReactNode {
  return (
    <p className="message" role="status" part={props.part ?? 'message'}>
      {props.children}
    </p>
  );
}

/** Ids and attributes that tie a control to its hint and error. */
function useDescribed(error: Msg | undefined, hint: string | undefined) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return {
    id,
    hintId,
    errorId,
    control: { 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined },
  };
}

function FieldNotes(props: {
  error: Msg | undefined;
  hint: string | undefined;
  hintId: string;
  errorId: string;
}): ReactNode {
  const text = useMsg();
  return (
    <>
      {props.hint ? (
        <p id={props.hintId} className="hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={props.errorId} className="field-error" role="alert" part="field-error">
          {text(props.error)}
        </p>
      ) : null}
    </>
  );
}

/** The first and last name fields side by side (registration and the edit form). */
export function NameFields(props: {
  first: string;
  last: string;
  labels: [string, string];
  onChange(name: 'first_name' | 'last_name', value: string): void;
  error(name: 'first_name' | 'last_name'): Msg | undefined;
}): ReactNode {
  return (
    <div className="pair">
      <TextField
        name="first_name"
        label={props.labels[0]}
        value={props.first}
        onChange={(value) => props.onChange('first_name', value)}
        autoComplete="given-name"
        error={props.error('first_name')}
        required
      />
      <TextField
        name="last_name"
        label={props.labels[1]}
        value={props.last}
        onChange={(value) => props.onChange('last_name', value)}
        autoComplete="family-name"
        error={props.error('last_name')}
        required
      />
    </div>
  );
}

/** A labelled text input. */
export function TextField(props: {
  name: string;
  label: string;
  value: string;
  onChange(value: string): void;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  error?: Msg | undefined;
  hint?: string | undefined;
  required?: boolean;
  inputRef?: RefObject<HTMLInputElement>;
  part?: string;
  inputMode?: 'text' | 'email';
  autoCapitalize?: string;
}): ReactNode {
  const { id, hintId, errorId, control } = useDescribed(props.error, props.hint);
  return (
    <div className="field" part={props.part ? `field ${props.part}` : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        ref={props.inputRef}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete={props.autoComplete}
        autoCapitalize={props.autoCapitalize}
        inputMode={props.inputMode}
        aria-required={props.required ? true : undefined}
        onChange={(e) => props.onChange(e.target.value)}
        {...control}
      />
      <FieldNotes error={props.error} hint={props.hint} hintId={hintId} errorId={errorId} />
    </div>
  );
}

/** A checkbox with its label. */
export function CheckField(props: {
  name: string;
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  error?: Msg | undefined;
  required?: boolean;
}): ReactNode {
  const { id, hintId, errorId, control } = useDescribed(props.error, undefined);
  return (
    <div className="field check" part="field">
      <input
        id={id}
        type="checkbox"
        name={props.name}
        checked={props.checked}
        aria-required={props.required ? true : undefined}
        onChange={(e) => props.onChange(e.target.checked)}
        {...control}
      />
      <label htmlFor={id}>{props.label}</label>
      <FieldNotes error={props.error} hint={undefined} hintId={hintId} errorId={errorId} />
    </div>
  );
}

/** A labelled select. */
export function SelectField(props: {
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange(value: string): void;
  error?: Msg | undefined;
}): ReactNode {
  const { id, hintId, errorId, control } = useDescribed(props.error, undefined);
  return (
    <div className="field" part="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        {...control}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes error={props.error} hint={undefined} hintId={hintId} errorId={errorId} />
    </div>
  );
}

/** The submit button: disabled, with its busy text, while a submission is in flight. */
export function Submit(props: { busy: boolean; label: string; busyLabel: string; danger?: boolean }): ReactNode {
  return (
    <button
      type="submit"
      className={props.danger ? 'btn danger' : 'btn'}
      part="submit"
      disabled={props.busy}
      aria-busy={props.busy || undefined}
    >
      {props.busy ? props.busyLabel : props.label}
    </button>
  );
}

/** A new password and its confirmation (registration, reset link, edit), with the length hint. */
export function NewPasswordFields(props: {
  labels: { password: string; confirmation: string };
  password: string;
  confirmation: string;
  onPassword(value: string): void;
  onConfirmation(value: string): void;
  form: FormState;
  required: boolean;
}): ReactNode {
  const { t } = useElement();
  const { form } = props;
  return (
    <>
      <TextField
        name="password"
        type="password"
        label={props.labels.password}
        value={props.password}
        onChange={props.onPassword}
        autoComplete="new-password"
        hint={t('forms:account.register.passwordHint', { min: MIN_PASSWORD })}
        error={form.error('password')}
        required={props.required}
      />
      <TextField
        name="password_confirmation"
        type="password"
        label={props.labels.confirmation}
        value={props.confirmation}
        onChange={props.onConfirmation}
        autoComplete="new-password"
        error={form.error('password_confirmation')}
        required={props.required}
      />
    </>
  );
}
