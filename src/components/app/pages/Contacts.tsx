/**
 * The contacts page: the channel's own contacts page blocks when it has one (url /contacts), its contact details
 * (`static_blocks.contacts`), the reply-within-5-business-days promise, and the `contact` custom form
 * (`GET custom-forms/contact`; a 404 means the channel has no form, and the page shows the details only).
 * The form checks its fields with the spec's messages before sending, shows each error under its field, maps a
 * 422's errors onto the fields, and keeps what was typed when sending fails.
 */
import { useStore } from '../../ui/use-store.js';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { CustomForm } from '../../../api/content-schemas.js';
import type { Msg } from '../../../stores/account.js';
import {
  $customForm,
  $page,
  loadCustomForm,
  loadPage,
  pageAlias,
  submitForm,
  type FormField,
} from '../../../stores/site/content.js';
import { contactDetails } from '../../../stores/site/static-blocks.js';
import { $settings } from '../../../stores/session.js';
import { NamespaceReady } from '../../ui/namespace.js';
import { LoadingPanel } from '../../ui/panels.js';
import { useElement } from '../../ui/shell.js';
import { FormAlert, Submit, useForm, useMsg } from '../../profile/form.js';
import { useSite } from '../site.js';
import { ContactDetails, ErrorPanel, PageBlocks, PageFrame } from './Content.js';

/** The alias of the contact form. */
const FORM_ALIAS = 'contact';

const AUTOCOMPLETE: Record<string, string> = { email: 'email', phone: 'tel', name: 'name' };

function Field(props: { field: FormField; value: string; error: Msg | undefined; onChange(value: string): void }) {
  const { t } = useElement();
  const text = useMsg();
  const id = useId();
  const { field, error } = props;
  const control = {
    id,
    name: field.name,
    value: props.value,
    autoComplete: AUTOCOMPLETE[field.type] ?? AUTOCOMPLETE[field.name],
    'aria-required': field.required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  return (
    <div className="field" part="field">
      <label htmlFor={id}>
        {field.label}
        {field.required ? <span className="hint"> ({t('site:contacts.required')})</span> : null}
      </label>
      {field.type === 'textarea' ? (
        <textarea {...control} rows={6} onChange={(e) => props.onChange(e.target.value)} />
      ) : (
        <input
          {...control}
          type={field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : 'text'}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert" part="field-error">
          {text(error)}
        </p>
      ) : null}
    </div>
  );
}

function ContactForm(props: { form: CustomForm }): ReactNode {
  const { t } = useElement();
  const { form } = props;
  const names = form.fields.map((field) => field.name);
  const state = useForm(names);
  const empty = () => Object.fromEntries(names.map((name) => [name, '']));
  const [values, setValues] = useState<Record<string, string>>(empty);
  const [sent, setSent] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSent(false);
    const outcome = await state.run(() => submitForm(form, values));
    if (outcome?.ok) {
      setValues(empty());
      setSent(true);
    }
  };

  return (
    <section aria-labelledby="contact-form-title" part="contact-form">
      <h2 id="contact-form-title">{form.name || t('site:contacts.formTitle')}</h2>
      <form ref={state.ref} className="contact-form" noValidate onSubmit={(e) => void submit(e)}>
        <FormAlert message={state.message} />
        {form.fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            value={values[field.name] ?? ''}
            error={state.error(field.name)}
            onChange={(value) => setValues((was) => ({ ...was, [field.name]: value }))}
          />
        ))}
        <div>
          <Submit busy={state.busy} label={t('site:contacts.send')} busyLabel={t('site:contacts.sending')} />
        </div>
        <p className="thanks" role="status" part="thanks">
          {sent ? t('site:contacts.thanks') : null}
        </p>
      </form>
    </section>
  );
}

function ContactsBody(): ReactNode {
  const site = useSite();
  const { t } = useElement();
  const listed = site.pages.find((page) => pageAlias(page.url.split(/[?#]/)[0] ?? '') === 'contacts');
  const alias = listed ? 'contacts' : '';
  const page = useStore($page(alias));
  const form = useStore($customForm(FORM_ALIAS));
  const hasDetails = contactDetails(useStore($settings)).length > 0;

  useEffect(() => {
    if (alias) void loadPage(alias);
    void loadCustomForm(FORM_ALIAS);
  }, [alias]);

  const blocks = page.status === 'ready' ? page.value?.blocks : undefined;
  let pagePart: ReactNode = null;
  if (page.status === 'loading') pagePart = <LoadingPanel variant="line" />;
  else if (page.status === 'error') {
    pagePart = <ErrorPanel title={t('site:content.error')} error={page.error} retry={() => void loadPage(alias)} />;
  } else if (blocks) pagePart = <PageBlocks blocks={blocks} />;

  let formPart: ReactNode = null;
  if (form.status === 'error') {
    const retry = () => void loadCustomForm(FORM_ALIAS);
    formPart = <ErrorPanel title={t('site:contacts.formError')} error={form.error} retry={retry} />;
  } else if (form.status === 'ready') formPart = form.value ? <ContactForm form={form.value} /> : null;
  else formPart = <LoadingPanel variant="line" text={t('site:contacts.formLoading')} />;

  return (
    <PageFrame title={listed?.alt_name || t('site:titles.contacts')}>
      {pagePart}
      <ContactDetails />
      {!hasDetails && !blocks ? <p part="not-published">{t('site:contacts.noDetails')}</p> : null}
      <p part="reply-time">{t('site:contacts.reply')}</p>
      {formPart}
    </PageFrame>
  );
}

/** The contacts page. */
export default function ContactsPage(): ReactNode {
  return (
    <NamespaceReady ns="site">
      <NamespaceReady ns="forms">
        <ContactsBody />
      </NamespaceReady>
    </NamespaceReady>
  );
}
