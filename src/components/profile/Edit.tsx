/**
 * The edit section of `<channel-profile>`: names, gender, news opt-in, a new password (with the current one
 * when the account has a password), what the account includes (capabilities and feature counts), the email's
 * verification state, and account deletion. With a temporary password it is the only section, and the new
 * password is required, the temporary one being the current password.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { User } from '../../api/channel-schemas.js';
import {
  needsCurrentPassword,
  profileInput,
  requestAccountDeletion,
  updateProfile,
  type GenderCode,
  type Outcome,
  type ProfileInput,
} from '../../stores/account.js';
import { useElement } from '../ui/shell.js';
import { ResendButton } from './auth.js';
import {
  CheckField,
  FormAlert,
  NewPasswordFields,
  SelectField,
  Status,
  Submit,
  TextField,
  NameFields,
  useForm,
  useMsg,
} from './form.js';

const k = (key: string) => `forms:account.${key}`;
const EDIT_FIELDS = [
  'first_name',
  'last_name',
  'gender',
  'news',
  'current_password',
  'password',
  'password_confirmation',
] as const;
/** Without the current-password field (a social-only account), a server error about it goes to the form's alert. */
const EDIT_FIELDS_NO_CURRENT = EDIT_FIELDS.filter((name) => name !== 'current_password');

/** The edit form and the account facts around it. */
export function EditSection(props: { user: User; locked: boolean }): ReactNode {
  const { t } = useElement();
  const { user, locked } = props;
  const [values, setValues] = useState<ProfileInput>(() => profileInput(user));
  const [saved, setSaved] = useState(false);
  const set =
    <K extends keyof ProfileInput>(name: K) =>
    (value: ProfileInput[K]) =>
      setValues((v) => ({ ...v, [name]: value }));
  const askCurrent = needsCurrentPassword(user);
  const form = useForm(askCurrent ? EDIT_FIELDS : EDIT_FIELDS_NO_CURRENT);
  const titleId = useId();
  const passwordId = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const outcome = await form.run(() => updateProfile(values));
    if (outcome?.ok) {
      setValues(profileInput(outcome.value));
      setSaved(true);
    }
  };

  return (
    <section className="section" aria-labelledby={titleId} part="edit">
      <h3 id={titleId} className="section-title">
        {t(k('edit.title'))}
      </h3>
      {locked ? (
        <p className="notice-box" role="alert" part="message temporary">
          {t(k('edit.temporary'))}
        </p>
      ) : null}
      <form ref={form.ref} className="form" noValidate onSubmit={submit}>
        <FormAlert message={form.message} />
        <div className="field" part="field">
          <span className="label">{t(k('edit.email'))}</span>
          <span className="value">{user.email}</span>
          {/* An API that does not say (the spec's User has no such field) gets no state. */}
          {user.email_verified == null ? null : (
            <span className="detail" part="email-state">
              {user.email_verified ? t(k('edit.verified')) : t(k('edit.notVerified'))}
            </span>
          )}
          {user.email_verified !== false ? null : (
            <div className="actions">
              <ResendButton />
            </div>
          )}
        </div>
        <NameFields
          first={values.first_name}
          last={values.last_name}
          labels={[t(k('edit.firstName')), t(k('edit.lastName'))]}
          onChange={(name, value) => set(name)(value)}
          error={(name) => form.error(name)}
        />
        <SelectField
          name="gender"
          label={t(k('edit.gender'))}
          value={values.gender}
          onChange={(value) => set('gender')(value as GenderCode)}
          options={[
            { value: '', label: t('forms:gender.unknown') },
            { value: 'M', label: t('forms:gender.M') },
            { value: 'W', label: t('forms:gender.W') },
          ]}
          error={form.error('gender')}
        />
        <CheckField
          name="news"
          label={t(k('edit.news'))}
          checked={values.news}
          onChange={set('news')}
          error={form.error('news')}
        />
        <fieldset className="group" aria-describedby={locked ? undefined : passwordId}>
          <legend>{t(k('edit.passwordTitle'))}</legend>
          {locked ? null : (
            <p id={passwordId} className="hint">
              {t(k('edit.passwordHint'))}
            </p>
          )}
          {askCurrent ? (
            <TextField
              name="current_password"
              type="password"
              label={t(k('edit.currentPassword'))}
              value={values.current_password}
              onChange={set('current_password')}
              autoComplete="current-password"
              hint={locked ? t(k('edit.currentPasswordTemporary')) : undefined}
              error={form.error('current_password')}
              required={locked || Boolean(values.password || values.password_confirmation)}
              part="current-password"
            />
          ) : null}
          <NewPasswordFields
            labels={{ password: t(k('edit.password')), confirmation: t(k('edit.confirmation')) }}
            password={values.password}
            confirmation={values.password_confirmation}
            onPassword={set('password')}
            onConfirmation={set('password_confirmation')}
            form={form}
            required={locked}
          />
        </fieldset>
        <div className="actions">
          <Submit busy={form.busy} label={t(k('edit.save'))} busyLabel={t(k('edit.busy'))} />
        </div>
        {saved ? <Status>{t(k('edit.saved'))}</Status> : null}
      </form>
      <AccountFacts user={user} />
      {locked ? null : <DeleteAccount />}
    </section>
  );
}

/** Capabilities as a readable list, and the feature counts. */
function AccountFacts({ user }: { user: User }): ReactNode {
  const { t } = useElement();
  const capabilitiesId = useId();
  const countsId = useId();
  const labels = [...new Set(user.capabilities.map((c) => t(k(`edit.capability.${c}`), { defaultValue: c })))];
  return (
    <div className="facts">
      <div>
        <h4 id={capabilitiesId}>{t(k('edit.capabilities'))}</h4>
        {labels.length ? (
          <ul className="capabilities" aria-labelledby={capabilitiesId} part="capabilities">
            {labels.map((label) => (
              <li key={label}>{label}</li>
            ))}
          </ul>
        ) : (
          <p className="detail">{t(k('edit.noCapabilities'))}</p>
        )}
      </div>
      {user.featureCount ? (
        <div>
          <h4 id={countsId}>{t(k('edit.counts'))}</h4>
          <ul className="counts" aria-labelledby={countsId} part="feature-counts">
            <li>{t(k('edit.clipsCount'), { count: user.featureCount.clips })}</li>
            <li>{t(k('edit.downloadsCount'), { count: user.featureCount.downloads })}</li>
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** "Delete account": asks first, then emails a confirmation link. */
function DeleteAccount(): ReactNode {
  const { t } = useElement();
  const text = useMsg();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const send = async () => {
    setBusy(true);
    setOutcome(await requestAccountDeletion());
    setBusy(false);
    setAsking(false);
  };
  if (outcome?.ok) {
    return (
      <div className="danger-zone">
        <Status>{t(k('deletion.sent'))}</Status>
      </div>
    );
  }
  return (
    <div className="danger-zone">
      {outcome && !outcome.ok ? (
        <p className="form-error" role="alert" part="form-error">
          {text(outcome.failure.message ?? outcome.failure.fallback ?? { key: 'errors.generic' })}
        </p>
      ) : null}
      {asking ? (
        <div className="confirm" role="group" aria-label={t(k('deletion.title'))}>
          <p>{t(k('deletion.ask'))}</p>
          <div className="actions">
            <button
              type="button"
              className="btn danger"
              part="button confirm-delete"
              disabled={busy}
              onClick={() => void send()}
            >
              {busy ? t(k('deletion.busy')) : t(k('deletion.send'))}
            </button>
            <button type="button" className="btn secondary" part="button" onClick={() => setAsking(false)}>
              {t(k('deletion.cancel'))}
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          className="btn secondary danger-text"
          part="delete-account"
          onClick={() => setAsking(true)}
        >
          {t(k('deletion.button'))}
        </button>
      )}
    </div>
  );
}
