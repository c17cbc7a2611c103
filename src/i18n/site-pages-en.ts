/**
 * English texts of the site's content pages (`site:content.*`, `site:faq.*`, `site:contacts.*`): they travel with
 * those pages' code, not in the site's texts its first render waits for; the pages' shared module
 * (components/app/pages/Content.tsx) adds them as it is evaluated, before it renders. French keeps them in
 * site-fr.ts, fetched whole.
 */
export const sitePagesEn = {
  content: {
    loading: 'Loading the page…',
    error: 'This page could not be loaded.',
    retry: 'Try again',
    newTab: '(opens in a new tab)',
    contactDetails: 'Contact details',
    email: 'Email',
    phone: 'Phone',
    address: 'Address',
    aboutEmpty: 'The channel has not published its about page yet.',
    privacyPolicy: 'The channel has not published its privacy policy yet.',
    termsConditions: 'The channel has not published its terms and conditions yet.',
  },
  faq: {
    loading: 'Loading the questions…',
    error: 'The questions could not be loaded.',
    empty: 'The channel has not published any questions and answers yet.',
  },
  contacts: {
    reply: 'We reply to every request within 5 business days.',
    noDetails: 'The channel has not published its contact details yet.',
    formTitle: 'Send us a message',
    formLoading: 'Loading the form…',
    formError: 'The contact form could not be loaded.',
    required: 'required',
    send: 'Send',
    sending: 'Sending…',
    thanks: 'Thank you! Your message was sent. We reply within 5 business days.',
  },
} as const;
