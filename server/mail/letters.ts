/**
 * What the server's emails say, in English and in French: each kind of letter (a verification link, a receipt, a
 * contact message...) written as a `Body` (a subject, a greeting, paragraphs, one action link, a list of details),
 * which layout.ts lays out as plain text and as HTML in the channel's colours. English is the source; French must
 * say the same (the type of `WORDS.fr` is that of `WORDS.en`).
 */

/** The languages emails are written in. */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A language the emails speak, or undefined for any other value. */
export const languageOf = (value: unknown): Language | undefined =>
  (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : undefined;

/** One letter: its kind and what it is about. Links are absolute URLs; amounts in the currency's units. */
export type Letter =
  | { kind: 'verify'; name: string | null; link: string; minutes: number }
  | { kind: 'reset'; name: string | null; link: string; minutes: number }
  | { kind: 'delete'; name: string | null; link: string; minutes: number }
  | { kind: 'deleted'; name: string | null }
  | { kind: 'device-linked'; name: string | null }
  /** The contact form, to the channel; `fields` in the form's order. */
  | { kind: 'contact'; form: string; fields: Field[] }
  /** Its copy, to the viewer who wrote it. */
  | { kind: 'contact-copy'; form: string; fields: Field[] }
  | {
      kind: 'receipt';
      name: string | null;
      product: string;
      amount: number;
      currency: string;
      reference: string | null;
      /** When it was paid, UNIX seconds. */
      at: number;
      link: string;
    }
  | {
      kind: 'renewal';
      name: string | null;
      product: string;
      amount: number;
      currency: string;
      /** The end of the period paid for, UNIX seconds. */
      until: number;
      link: string;
    }
  | { kind: 'renewal-failed'; name: string | null; product: string; link: string };

export type LetterKind = Letter['kind'];

/** A labelled value (a form's field, a receipt's line). */
export interface Field {
  label: string;
  value: string;
}

/** What a letter says, before it is laid out. */
export interface Body {
  subject: string;
  greeting: string | null;
  paragraphs: string[];
  /** The one link the letter is for (a button in HTML, a line of its own in text). */
  action?: { label: string; url: string } | undefined;
  details?: Field[] | undefined;
  /** Paragraphs after the action and the details. */
  closing: string[];
}

/** The channel an email speaks for: its name, language, logo and colours, and its contact address. */
export interface Brand {
  name: string;
  language: Language;
  /** An absolute http(s) URL of its logo, if any. */
  logo: string | null;
  colors: { header: string; headerText: string; primary: string; background: string; text: string };
  /** The channel's contact address (settings static_blocks.contacts.email): replies go there. */
  contact: string | null;
}

/** The letter's link, if it has one (the outbox lists it, so tests and the dev page can follow it). */
export function linksOf(letter: Letter): string[] {
  return 'link' in letter ? [letter.link] : [];
}

/** A currency amount as the language writes it ('$12.50', '12,50 $US'). */
function money(language: Language, amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(language === 'fr' ? 'fr-FR' : 'en-US', { style: 'currency', currency }).format(amount);
  } catch {
    // A currency code Intl does not know: the number and the code.
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** A day as the language writes it, in UTC ('June 15, 2030', '15 juin 2030'). */
function day(language: Language, at: number): string {
  return new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(at * 1000),
  );
}

/** What one language says; every entry of English has its French. */
interface Words {
  hello(name: string | null): string;
  buttonFallback: string;
  sentBy(channel: string): string;
  replyTo(contact: string): string;
  verify: { subject(channel: string): string; text(minutes: number): string; action: string; notYou: string };
  reset: { subject(channel: string): string; text(minutes: number): string; action: string; notYou: string };
  delete: { subject(channel: string): string; text(minutes: number): string; action: string; notYou: string };
  deleted: { subject(channel: string): string; text(channel: string): string };
  device: { subject(channel: string): string; text: string; notYou: string };
  contact: { subject(form: string): string; text(form: string): string; replyHint: string };
  contactCopy: { subject(channel: string): string; text(channel: string): string };
  receipt: {
    subject(channel: string, product: string): string;
    text(product: string): string;
    product: string;
    amount: string;
    reference: string;
    date: string;
    action: string;
  };
  renewal: {
    subject(product: string): string;
    text(product: string, until: string): string;
    amount: string;
    action: string;
  };
  renewalFailed: { subject(product: string): string; text(product: string): string; action: string };
}

const en: Words = {
  hello: (name) => (name ? `Hello ${name},` : 'Hello,'),
  buttonFallback: 'If the button does not work, copy this link into your browser:',
  sentBy: (channel) => `This email was sent by ${channel}.`,
  replyTo: (contact) => `Questions? Write to ${contact}.`,
  verify: {
    subject: (channel) => `Verify your email address for ${channel}`,
    text: (minutes) => `Please confirm your email address by opening this link within ${minutes} minutes.`,
    action: 'Verify my email address',
    notYou: 'If you did not create an account, you can ignore this email.',
  },
  reset: {
    subject: (channel) => `Reset your ${channel} password`,
    text: (minutes) =>
      `Someone asked to reset the password of your account. To choose a new one, open this link within ${minutes} minutes.`,
    action: 'Choose a new password',
    notYou: 'If it was not you, ignore this email: your password stays as it is.',
  },
  delete: {
    subject: (channel) => `Confirm the deletion of your ${channel} account`,
    text: (minutes) =>
      `To delete your account and everything in it for good, open this link within ${minutes} minutes and confirm.`,
    action: 'Delete my account',
    notYou: 'If you did not ask for this, ignore this email: nothing is deleted.',
  },
  deleted: {
    subject: (channel) => `Your ${channel} account was deleted`,
    text: (channel) =>
      `Your ${channel} account and everything in it (orders, clips, favourites) have been deleted, as you confirmed.`,
  },
  device: {
    subject: (channel) => `A device was linked to your ${channel} account`,
    text: 'A device was just linked to your account with a code.',
    notYou: 'If it was not you, change your password.',
  },
  contact: {
    subject: (form) => `${form}: a new message from the site`,
    text: (form) => `Someone sent the form "${form}" on the site:`,
    replyHint: 'Reply to this email to answer them.',
  },
  contactCopy: {
    subject: (channel) => `Your message to ${channel}`,
    text: (channel) => `We received your message and passed it on to ${channel}. This is a copy of what you sent:`,
  },
  receipt: {
    subject: (channel, product) => `Your receipt from ${channel}: ${product}`,
    text: (product) => `Thank you for your purchase. Your payment for ${product} was received.`,
    product: 'Product',
    amount: 'Amount paid',
    reference: 'Reference',
    date: 'Date',
    action: 'See my orders',
  },
  renewal: {
    subject: (product) => `Your ${product} subscription was renewed`,
    text: (product, until) => `Your ${product} subscription was renewed: you can watch until ${until}.`,
    amount: 'Amount paid',
    action: 'See my orders',
  },
  renewalFailed: {
    subject: (product) => `We could not renew your ${product} subscription`,
    text: (product) =>
      `Your card was declined when we tried to renew your ${product} subscription, so your access is paused. Update your card from your orders: the renewal is tried again, and your access comes back once it is paid.`,
    action: 'See my orders',
  },
};

const fr: Words = {
  hello: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
  buttonFallback: 'Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur\u00a0:',
  sentBy: (channel) => `Cet e-mail vous a été envoyé par ${channel}.`,
  replyTo: (contact) => `Une question\u00a0? Écrivez à ${contact}.`,
  verify: {
    subject: (channel) => `Confirmez votre adresse e-mail pour ${channel}`,
    text: (minutes) => `Veuillez confirmer votre adresse e-mail en ouvrant ce lien dans les ${minutes} minutes.`,
    action: 'Confirmer mon adresse e-mail',
    notYou: "Si vous n'avez pas créé de compte, vous pouvez ignorer cet e-mail.",
  },
  reset: {
    subject: (channel) => `Réinitialisez votre mot de passe ${channel}`,
    text: (minutes) =>
      `Quelqu'un a demandé à réinitialiser le mot de passe de votre compte. Pour en choisir un nouveau, ouvrez ce lien dans les ${minutes} minutes.`,
    action: 'Choisir un nouveau mot de passe',
    notYou: "Si ce n'était pas vous, ignorez cet e-mail\u00a0: votre mot de passe reste inchangé.",
  },
  delete: {
    subject: (channel) => `Confirmez la suppression de votre compte ${channel}`,
    text: (minutes) =>
      `Pour supprimer définitivement votre compte et tout ce qu'il contient, ouvrez ce lien dans les ${minutes} minutes et confirmez.`,
    action: 'Supprimer mon compte',
    notYou: "Si vous n'avez rien demandé, ignorez cet e-mail\u00a0: rien n'est supprimé.",
  },
  deleted: {
    subject: (channel) => `Votre compte ${channel} a été supprimé`,
    text: (channel) =>
      `Votre compte ${channel} et tout ce qu'il contenait (commandes, clips, favoris) ont été supprimés, comme vous l'avez confirmé.`,
  },
  device: {
    subject: (channel) => `Un appareil a été associé à votre compte ${channel}`,
    text: 'Un appareil vient d’être associé à votre compte avec un code.',
    notYou: "Si ce n'était pas vous, changez votre mot de passe.",
  },
  contact: {
    subject: (form) => `${form}\u00a0: un nouveau message du site`,
    text: (form) => `Quelqu'un a envoyé le formulaire «\u00a0${form}\u00a0» sur le site\u00a0:`,
    replyHint: 'Répondez à cet e-mail pour lui répondre.',
  },
  contactCopy: {
    subject: (channel) => `Votre message à ${channel}`,
    text: (channel) =>
      `Nous avons bien reçu votre message et l'avons transmis à ${channel}. Voici une copie de ce que vous avez envoyé\u00a0:`,
  },
  receipt: {
    subject: (channel, product) => `Votre reçu ${channel}\u00a0: ${product}`,
    text: (product) => `Merci pour votre achat. Votre paiement pour ${product} a bien été reçu.`,
    product: 'Produit',
    amount: 'Montant payé',
    reference: 'Référence',
    date: 'Date',
    action: 'Voir mes commandes',
  },
  renewal: {
    subject: (product) => `Votre abonnement ${product} a été renouvelé`,
    text: (product, until) =>
      `Votre abonnement ${product} a été renouvelé\u00a0: vous pouvez regarder jusqu'au ${until}.`,
    amount: 'Montant payé',
    action: 'Voir mes commandes',
  },
  renewalFailed: {
    subject: (product) => `Nous n'avons pas pu renouveler votre abonnement ${product}`,
    text: (product) =>
      `Votre carte a été refusée lors du renouvellement de votre abonnement ${product}\u00a0: votre accès est suspendu. Mettez votre carte à jour depuis vos commandes\u00a0: le renouvellement sera retenté, et votre accès reviendra dès qu'il sera payé.`,
    action: 'Voir mes commandes',
  },
};

const WORDS: Record<Language, Words> = { en, fr };

/** What one letter says in one language, for one channel. */
export function write(letter: Letter, language: Language, brand: Brand): Body {
  const w = WORDS[language];
  const channel = brand.name;
  switch (letter.kind) {
    case 'verify':
    case 'reset':
    case 'delete': {
      const words = w[letter.kind];
      return {
        subject: words.subject(channel),
        greeting: w.hello(letter.name),
        paragraphs: [words.text(letter.minutes)],
        action: { label: words.action, url: letter.link },
        closing: [words.notYou],
      };
    }
    case 'deleted':
      return {
        subject: w.deleted.subject(channel),
        greeting: w.hello(letter.name),
        paragraphs: [w.deleted.text(channel)],
        closing: [],
      };
    case 'device-linked':
      return {
        subject: w.device.subject(channel),
        greeting: w.hello(letter.name),
        paragraphs: [w.device.text],
        closing: [w.device.notYou],
      };
    case 'contact':
      return {
        subject: w.contact.subject(letter.form),
        greeting: null,
        paragraphs: [w.contact.text(letter.form)],
        details: letter.fields,
        closing: [w.contact.replyHint],
      };
    case 'contact-copy':
      return {
        subject: w.contactCopy.subject(channel),
        greeting: w.hello(null),
        paragraphs: [w.contactCopy.text(channel)],
        details: letter.fields,
        closing: [],
      };
    case 'receipt':
      return {
        subject: w.receipt.subject(channel, letter.product),
        greeting: w.hello(letter.name),
        paragraphs: [w.receipt.text(letter.product)],
        details: [
          { label: w.receipt.product, value: letter.product },
          { label: w.receipt.amount, value: money(language, letter.amount, letter.currency) },
          ...(letter.reference ? [{ label: w.receipt.reference, value: letter.reference }] : []),
          { label: w.receipt.date, value: day(language, letter.at) },
        ],
        action: { label: w.receipt.action, url: letter.link },
        closing: [],
      };
    case 'renewal':
      return {
        subject: w.renewal.subject(letter.product),
        greeting: w.hello(letter.name),
        paragraphs: [w.renewal.text(letter.product, day(language, letter.until))],
        details: [{ label: w.renewal.amount, value: money(language, letter.amount, letter.currency) }],
        action: { label: w.renewal.action, url: letter.link },
        closing: [],
      };
    case 'renewal-failed':
      return {
        subject: w.renewalFailed.subject(letter.product),
        greeting: w.hello(letter.name),
        paragraphs: [w.renewalFailed.text(letter.product)],
        action: { label: w.renewalFailed.action, url: letter.link },
        closing: [],
      };
  }
}

/** The words around every letter: who sent it, where to write. */
export function footer(language: Language, brand: Brand): string[] {
  const w = WORDS[language];
  return [w.sentBy(brand.name), ...(brand.contact ? [w.replyTo(brand.contact)] : [])];
}

/** The line under a button, for mail readers that show none. */
export const buttonFallback = (language: Language): string => WORDS[language].buttonFallback;
