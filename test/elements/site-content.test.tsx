// The site's content pages (channel pages, about, privacy, terms, FAQ, contacts, simulate) rendered one at a time
// in the site harness against a fake channel API: what a viewer sees, what went over the wire, and that HTML from
// the API runs nothing.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { Page } from '../../src/api/contract.js';
import ContactsPage from '../../src/components/app/pages/Contacts.js';
import ContentPage from '../../src/components/app/pages/Content.js';
import FaqPage from '../../src/components/app/pages/Faq.js';
import SimulatePage from '../../src/components/app/pages/Simulate.js';
import { sanitizeHtml } from '../../src/components/app/pages/html.js';
import { setEnv } from '../../src/lib/env.js';
import { recordingLogger, ok, type FakeServer } from '../unit/helpers.js';
import { API, renderSitePage, type RenderedPage } from './site-harness.js';

const SETTINGS = {
  name: 'Demo Sports',
  language: 'en',
  currency: 'USD',
  static_blocks: {
    contacts: { email: 'hello@demo.test', phone: '+1 (555) 010-2000', address: '1 Arena Way\nSpringfield' },
    social: { site: 'https://demo.test/club', motto: 'Play fair' },
  },
};

const PARTNERS: Page = { id: 7, name: 'Partners', alt_name: null, url: '/partners' };

let current: RenderedPage | undefined;

function render(...args: Parameters<typeof renderSitePage>): RenderedPage {
  current = renderSitePage(...args);
  return current;
}

afterEach(() => {
  current?.unmount();
  current = undefined;
});

/** Settings with static blocks, plus the page's own answers. */
function channel(more?: (server: FakeServer) => void, settings: Record<string, unknown> = SETTINGS) {
  return (server: FakeServer) => {
    server.on('GET', `${API}/settings`, ok(settings));
    more?.(server);
  };
}

async function shows(page: RenderedPage, text: string, timeout = 4000): Promise<void> {
  await waitUntil(() => page.text().includes(text), `the page to show "${text}"; it shows "${page.text()}"`, {
    timeout,
  });
}

/** The /partners channel page, answered with `blocks`. */
function partners(name: string, blocks: unknown[], options: { logger?: ReturnType<typeof recordingLogger> } = {}) {
  const page = render(ContentPage, {
    path: '/partners',
    pages: [PARTNERS],
    setup: channel((server) =>
      server.on('GET', `${API}/pages/partners`, ok({ id: 7, name, url: '/partners', blocks })),
    ),
  });
  if (options.logger) setEnv({ logger: options.logger.logger });
  return page;
}

const all = <E extends Element = HTMLElement>(page: RenderedPage, selector: string) => [
  ...page.root.querySelectorAll<E>(selector),
];
const one = <E extends Element = HTMLElement>(page: RenderedPage, selector: string) => {
  const found = page.root.querySelector<E>(selector);
  if (!found) throw new Error(`no ${selector} in ${page.root.innerHTML}`);
  return found;
};
const link = (page: RenderedPage, text: string) => {
  const found = all<HTMLAnchorElement>(page, 'a').find((a) => a.textContent?.includes(text));
  if (!found) throw new Error(`no link "${text}"`);
  return found;
};

describe('site content page', () => {
  it('renders every block type, resolves static blocks and rewrites links', async () => {
    const logger = recordingLogger();
    const page = partners(
      'Our partners',
      [
        {
          type: 'paragraph',
          html: '<p>Thanks to <strong>everyone</strong>. <a href="/watch/12">Watch the final</a> or <a href="https://example.org/x">visit them</a> or <a href="mailto:a@b.test" target="_blank">mail</a>.</p>',
        },
        { type: 'image', url: 'https://cdn.test/team.png', alt: 'The team' },
        { type: 'image', url: 'javascript:alert(1)', alt: 'never' },
        { type: 'static-block', ref: 'contacts:email' },
        { type: 'static-block', ref: 'social:site' },
        { type: 'static-block', ref: 'social:motto' },
        { type: 'static-block', ref: 'social:missing-one' },
        { type: 'static-block', ref: 'social:missing-one' },
        { type: 'static-block', ref: 'nocolon' },
      ],
      { logger },
    );
    await shows(page, 'Thanks to everyone');
    await shows(page, 'Play fair');

    expect(one(page, 'h1').textContent).to.equal('Our partners');
    expect(page.headings.at(-1)).to.equal('Our partners');
    const inApp = link(page, 'Watch the final');
    expect(inApp.getAttribute('href')).to.equal('/site/watch/12');
    expect(inApp.hasAttribute('target')).to.equal(false);
    const external = link(page, 'visit them');
    expect(external.getAttribute('target')).to.equal('_blank');
    expect(external.rel).to.contain('noopener');
    expect(link(page, 'mail').hasAttribute('target'), 'mailto opens no tab').to.equal(false);

    const images = all<HTMLImageElement>(page, 'img');
    expect(images.map((img) => [img.getAttribute('src'), img.alt])).to.deep.equal([
      ['https://cdn.test/team.png', 'The team'],
    ]);
    expect(link(page, 'hello@demo.test').getAttribute('href')).to.equal('mailto:hello@demo.test');
    const site = link(page, 'https://demo.test/club');
    expect(site.getAttribute('target')).to.equal('_blank');
    expect(site.rel).to.contain('noopener');
    expect(logger.lines.warn.filter((line) => line.includes('social:missing-one'))).to.have.length(1);
    expect(logger.lines.warn.some((line) => line.includes('"nocolon"'))).to.equal(true);
    await expect(page.host).shadowDom.to.be.accessible();
  });

  it('renders a hostile page as text and runs none of it', async () => {
    let calls = 0;
    const scope = window as unknown as Record<string, unknown>;
    scope.__contentPwned = () => void calls++;
    const evil = 'window.__contentPwned()';
    const page = partners('Partners', [
      {
        type: 'paragraph',
        html: [
          `<p>Intro text<script>${evil}</script></p>`,
          `<img src="x" onerror="${evil}" alt="broken">`,
          `<img src="data:image/svg+xml;base64,PHN2Zy8+" alt="inline">`,
          `<a href="javascript:${evil}">Click me</a>`,
          `<a href=" jav&#x09;ascript:${evil}">Sneaky</a>`,
          `<p onclick="${evil}" onmouseover="${evil}">Tap here</p>`,
          `<svg onload="${evil}"><circle r="4"></circle></svg>`,
          `<form action="https://evil.test"><input name="q" value="typed"><button>Go</button></form>`,
          `<iframe src="javascript:${evil}"></iframe>`,
          `<style>:host { display: none }</style><div style="position:fixed;inset:0">Cover</div>`,
          `<a href="//evil.test/x">Protocol relative</a>`,
          `<a href="https://example.org/partner" target="_self">Partner site</a>`,
        ].join(''),
      },
    ]);
    await shows(page, 'Partner site');
    for (const text of ['Intro text', 'Click me', 'Sneaky', 'Tap here', 'Cover', 'Protocol relative'])
      expect(page.text()).to.contain(text);
    for (const a of all<HTMLAnchorElement>(page, 'a')) a.click();
    all(page, 'p').forEach((p) => p.click());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls, 'no vector ran').to.equal(0);
    delete scope.__contentPwned;

    const content = one(page, '[part="content"]');
    expect(content.querySelectorAll('script, svg, form, input, button, iframe, style').length).to.equal(0);
    const attributes = [...content.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name));
    expect(attributes.filter((name) => name.startsWith('on') || name === 'style')).to.deep.equal([]);
    const hrefs = [...content.querySelectorAll('[href], [src]')].map(
      (el) => el.getAttribute('href') ?? el.getAttribute('src'),
    );
    expect(hrefs).to.deep.equal(['https://example.org/partner']);
    expect(link(page, 'Partner site').rel).to.contain('noopener');
    expect(link(page, 'Partner site').target).to.equal('_blank');
  });

  it('sanitizes with a private DOMPurify: site paths get the base, mail and phone links no tab', () => {
    const html = sanitizeHtml(
      '<a href="/faq?x=1">FAQ</a><a href="tel:+15550102000">Call</a><a href="mailto:a@b.test">Mail</a>',
      {
        href: (path) => `/tv${path}`,
      },
    );
    const box = document.createElement('div');
    box.innerHTML = html;
    const [faq, tel, mail] = [...box.querySelectorAll('a')];
    expect(faq!.getAttribute('href')).to.equal('/tv/faq?x=1');
    expect(tel!.getAttribute('href')).to.equal('tel:+15550102000');
    expect(tel!.hasAttribute('target')).to.equal(false);
    expect(mail!.hasAttribute('target')).to.equal(false);
  });

  it('goes to the 404 when the API does not have the page', async () => {
    const page = render(ContentPage, {
      path: '/partners',
      pages: [PARTNERS],
      setup: channel((server) =>
        server.on('GET', `${API}/pages/partners`, { status: 404, body: { message: 'Not found' } }),
      ),
    });
    await waitUntil(() => page.navigations.length > 0, 'a navigation');
    expect(page.navigations).to.deep.equal(['/404']);
  });

  it('shows a translated error with Retry, which loads the page again', async () => {
    const page = render(ContentPage, {
      path: '/partners',
      pages: [PARTNERS],
      setup: channel((server) =>
        server.on(
          'GET',
          `${API}/pages/partners`,
          { status: 400, body: { message: 'Bad request' } },
          ok({ id: 7, name: 'Partners', url: '/partners', blocks: [{ type: 'paragraph', html: '<p>Back again</p>' }] }),
        ),
      ),
    });
    await shows(page, 'This page could not be loaded.');
    expect(one(page, '[part="error"]').getAttribute('role')).to.equal('alert');
    await expect(page.host).shadowDom.to.be.accessible();
    one<HTMLButtonElement>(page, '[part="error"] button').click();
    await shows(page, 'Back again');
  });

  it('shows the channel page at /about, /privacy_policy and /terms_conditions when it has one', async () => {
    for (const [path, alias] of [
      ['/about', 'about'],
      ['/privacy_policy', 'privacy_policy'],
      ['/terms_conditions', 'terms_conditions'],
    ] as const) {
      const page = render(ContentPage, {
        path,
        pages: [{ id: 3, name: `Page ${alias}`, alt_name: null, url: path }],
        setup: channel((server) =>
          server.on(
            'GET',
            `${API}/pages/${alias}`,
            ok({
              id: 3,
              name: `Page ${alias}`,
              url: path,
              blocks: [{ type: 'paragraph', html: `<p>Text of ${alias}</p>` }],
            }),
          ),
        ),
      });
      await shows(page, `Text of ${alias}`);
      expect(one(page, 'h1').textContent).to.equal(`Page ${alias}`);
      await expect(page.host).shadowDom.to.be.accessible();
      page.unmount();
    }
  });

  it('about without a channel page: the channel name and its contact details', async () => {
    const page = render(ContentPage, { path: '/about', setup: channel() });
    await shows(page, 'Demo Sports');
    await shows(page, 'hello@demo.test');
    expect(one(page, 'h1').textContent).to.equal('About');
    expect(link(page, 'hello@demo.test').getAttribute('href')).to.equal('mailto:hello@demo.test');
    expect(link(page, '+1 (555) 010-2000').getAttribute('href')).to.equal('tel:+15550102000');
    expect(page.text()).to.contain('1 Arena Way');
    expect(page.server.calls.some((call) => call.path.includes('/pages/'))).to.equal(false);
    await expect(page.host).shadowDom.to.be.accessible();
  });

  it('privacy and terms without a channel page say they are not published yet (not a 404)', async () => {
    const privacy = render(ContentPage, { path: '/privacy_policy', setup: channel() });
    await shows(privacy, 'The channel has not published its privacy policy yet.');
    expect(one(privacy, 'h1').textContent).to.equal('Privacy policy');
    await expect(privacy.host).shadowDom.to.be.accessible();
    privacy.unmount();
    const terms = render(ContentPage, { path: '/terms_conditions', setup: channel() });
    await shows(terms, 'The channel has not published its terms and conditions yet.');
    expect(terms.navigations).to.deep.equal([]);
  });

  it('speaks French', async () => {
    const page = render(ContentPage, { path: '/privacy_policy', lang: 'fr', setup: channel() });
    await shows(page, 'La chaîne n’a pas encore publié sa politique de confidentialité.');
    expect(one(page, 'h1').textContent).to.equal('Politique de confidentialité');
  });
});

describe('site FAQ page', () => {
  const FAQ = [
    {
      id: 1,
      question: 'How do I buy a pass?',
      answer: '<p>Open <a href="/packages">the passes</a>.</p><script>window.__faqPwned()</script>',
    },
    { id: 2, question: 'Can I watch on TV?', answer: '<p>Yes, link your TV.</p>' },
  ];

  it('is an accordion operated by keyboard, answers collapsed at first', async () => {
    const page = render(FaqPage, { path: '/faq', setup: channel((server) => server.on('GET', `${API}/faq`, ok(FAQ))) });
    await shows(page, 'Can I watch on TV?');
    const buttons = all<HTMLButtonElement>(page, 'h2 > button');
    expect(buttons).to.have.length(2);
    const regions = buttons.map((b) => page.root.getElementById(b.getAttribute('aria-controls')!)!);
    expect(buttons.map((b) => b.getAttribute('aria-expanded'))).to.deep.equal(['false', 'false']);
    expect(regions.map((r) => r.hidden)).to.deep.equal([true, true]);
    expect(regions[0]!.getAttribute('role')).to.equal('region');
    expect(regions[0]!.getAttribute('aria-labelledby')).to.equal(buttons[0]!.id);
    await expect(page.host).shadowDom.to.be.accessible();

    buttons[0]!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => buttons[0]!.getAttribute('aria-expanded') === 'true', 'Enter opens');
    expect(regions[0]!.hidden).to.equal(false);
    expect(link(page, 'the passes').getAttribute('href')).to.equal('/site/packages');
    expect(regions[0]!.querySelector('script')).to.equal(null);

    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(page.root.activeElement).to.equal(buttons[1]);
    await sendKeys({ press: 'Space' });
    await waitUntil(() => buttons[1]!.getAttribute('aria-expanded') === 'true', 'Space opens');
    buttons[0]!.focus();
    await sendKeys({ press: 'Space' });
    await waitUntil(() => buttons[0]!.getAttribute('aria-expanded') === 'false', 'Space closes');
    expect(regions[0]!.hidden).to.equal(true);
    await expect(page.host).shadowDom.to.be.accessible();
  });

  it('an empty list says so', async () => {
    const page = render(FaqPage, { path: '/faq', setup: channel((server) => server.on('GET', `${API}/faq`, ok([]))) });
    await shows(page, 'The channel has not published any questions and answers yet.');
  });

  it('a malformed answer shows an error with Retry', async () => {
    const page = render(FaqPage, {
      path: '/faq',
      setup: channel((server) => server.on('GET', `${API}/faq`, ok({ id: 'x' }), ok(FAQ))),
    });
    await shows(page, 'The questions could not be loaded.');
    await shows(page, 'The channel sent data this page cannot read');
    one<HTMLButtonElement>(page, '[part="error"] button').click();
    await shows(page, 'How do I buy a pass?');
  });

  it('speaks French', async () => {
    const page = render(FaqPage, {
      path: '/faq',
      lang: 'fr',
      setup: channel((server) => server.on('GET', `${API}/faq`, ok([]))),
    });
    await shows(page, 'La chaîne n’a pas encore publié de questions et réponses.');
  });
});

describe('site contacts page', () => {
  const FORM = {
    alias: 'contact',
    name: 'Write to us',
    fields: [
      { name: 'name', label: 'Your name', type: 'text', required: true, min_length: 2, max_length: 40 },
      { name: 'email', label: 'Your email', type: 'email', required: true },
      { name: 'phone', label: 'Phone', type: 'phone', required: false },
      { name: 'message', label: 'Message', type: 'textarea', required: true, max_length: 20 },
    ],
  };
  const FORM_URL = `${API}/custom-forms/contact`;

  const control = (page: RenderedPage, label: string) => {
    const found = all<HTMLLabelElement>(page, 'label').find((l) => l.textContent?.startsWith(label));
    if (!found) throw new Error(`no field "${label}"`);
    return page.root.getElementById(found.htmlFor) as HTMLInputElement | HTMLTextAreaElement;
  };
  const type = (page: RenderedPage, label: string, value: string) => {
    const el = control(page, label);
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const errorOf = (page: RenderedPage, label: string) => {
    const el = control(page, label);
    const id = el.getAttribute('aria-describedby');
    return id ? (page.root.getElementById(id)?.textContent ?? '') : '';
  };
  const submit = (page: RenderedPage) => one<HTMLButtonElement>(page, 'button[type="submit"]').click();
  const fill = (page: RenderedPage) => {
    type(page, 'Your name', 'Ada');
    type(page, 'Your email', 'ada@example.test');
    type(page, 'Phone', '+1 555-010-2000');
    type(page, 'Message', 'Hello there');
  };
  const withForm = (reply?: Parameters<FakeServer['on']>[2]) =>
    channel((server) => {
      server.on('GET', FORM_URL, ok(FORM));
      if (reply) server.on('POST', FORM_URL, reply);
    });

  it('shows the details, the reply promise and the form, with an input per field type', async () => {
    const page = render(ContactsPage, { path: '/contacts', setup: withForm() });
    await shows(page, 'Write to us');
    expect(page.text()).to.contain('We reply to every request within 5 business days.');
    expect(page.text()).to.contain('hello@demo.test');
    expect((control(page, 'Your email') as HTMLInputElement).type).to.equal('email');
    expect((control(page, 'Phone') as HTMLInputElement).type).to.equal('tel');
    expect(control(page, 'Message').tagName).to.equal('TEXTAREA');
    await expect(page.host).shadowDom.to.be.accessible();
  });

  it('checks every rule in the browser, marks the fields and focuses the first invalid one', async () => {
    const page = render(ContactsPage, { path: '/contacts', setup: withForm() });
    await shows(page, 'Write to us');
    submit(page);
    await waitUntil(() => errorOf(page, 'Your name') !== '', 'the errors');
    expect(errorOf(page, 'Your name')).to.equal('Field is required');
    expect(errorOf(page, 'Your email')).to.equal('Field is required');
    expect(errorOf(page, 'Message')).to.equal('Field is required');
    expect(errorOf(page, 'Phone')).to.equal('');
    expect(control(page, 'Your name').getAttribute('aria-invalid')).to.equal('true');
    await waitUntil(() => page.root.activeElement === control(page, 'Your name'), 'focus on the first invalid field');
    await expect(page.host).shadowDom.to.be.accessible();

    type(page, 'Your name', 'A');
    type(page, 'Your email', 'ada@');
    type(page, 'Phone', '12345');
    type(page, 'Message', 'x'.repeat(21));
    submit(page);
    await waitUntil(() => errorOf(page, 'Your name').includes('greater'), 'the new errors');
    expect(errorOf(page, 'Your name')).to.equal('Field length must be greater than 1');
    expect(errorOf(page, 'Your email')).to.equal('A valid email address is required');
    expect(errorOf(page, 'Phone')).to.equal('Enter a phone number of 10 to 14 digits');
    expect(errorOf(page, 'Message')).to.equal('Field length must be less than 21');

    type(page, 'Your name', 'x'.repeat(41));
    type(page, 'Phone', '+1 (555) 010-2000-12345');
    submit(page);
    await waitUntil(() => errorOf(page, 'Your name').includes('less'), 'the max length error');
    expect(errorOf(page, 'Your name')).to.equal('Field length must be less than 41');
    expect(errorOf(page, 'Phone')).to.equal('Enter a phone number of 10 to 14 digits');
    // At the bounds the rule and its message agree: 2 and 40 characters pass, 20 for the message too.
    type(page, 'Your name', 'x'.repeat(40));
    type(page, 'Message', 'x'.repeat(20));
    submit(page);
    await waitUntil(() => errorOf(page, 'Your name') === '', 'forty characters pass');
    expect(errorOf(page, 'Message')).to.equal('');
    type(page, 'Your name', 'xy');
    submit(page);
    await waitUntil(() => errorOf(page, 'Phone') !== '', 'the phone still in error');
    expect(errorOf(page, 'Your name'), 'two characters pass').to.equal('');
    expect(page.server.to('POST', FORM_URL)).to.have.length(0);
  });

  it('sends the values, thanks the viewer and clears the form', async () => {
    const page = render(ContactsPage, { path: '/contacts', setup: withForm(ok({ message: 'Sent' })) });
    await shows(page, 'Write to us');
    fill(page);
    submit(page);
    await shows(page, 'Thank you! Your message was sent.');
    expect(one(page, '[part="thanks"]').getAttribute('role')).to.equal('status');
    const [post] = page.server.to('POST', FORM_URL);
    expect((post!.body as { values: unknown }).values).to.deep.equal({
      name: 'Ada',
      email: 'ada@example.test',
      phone: '+1 555-010-2000',
      message: 'Hello there',
    });
    expect(control(page, 'Your name').value).to.equal('');
    expect(control(page, 'Message').value).to.equal('');
  });

  it('maps a 422 onto the fields', async () => {
    const page = render(ContactsPage, {
      path: '/contacts',
      setup: withForm({
        status: 422,
        body: {
          message: 'The given data was invalid.',
          errors: { email: ['A valid email address is required'], message: ['Links are not allowed here'] },
        },
      }),
    });
    await shows(page, 'Write to us');
    fill(page);
    submit(page);
    await waitUntil(() => errorOf(page, 'Message') !== '', 'the server errors');
    expect(errorOf(page, 'Your email')).to.equal('A valid email address is required');
    expect(errorOf(page, 'Message')).to.equal('Links are not allowed here');
    expect(control(page, 'Your name').value, 'typed values kept').to.equal('Ada');
    expect(page.text()).not.to.contain('Thank you');
  });

  it('a network failure shows a translated error and keeps what was typed', async () => {
    const page = render(ContactsPage, { path: '/contacts', setup: withForm(new TypeError('Failed to fetch')) });
    await shows(page, 'Write to us');
    fill(page);
    submit(page);
    await shows(page, 'Something went wrong. Please try again or contact technical support', 5000);
    expect(one(page, '[part="form-error"]').getAttribute('role')).to.equal('alert');
    expect(control(page, 'Message').value).to.equal('Hello there');
    expect(control(page, 'Your email').value).to.equal('ada@example.test');
  }).timeout(8000);

  it('without a form (404), shows the contact details only', async () => {
    const page = render(ContactsPage, {
      path: '/contacts',
      setup: channel((server) => server.on('GET', FORM_URL, { status: 404, body: { message: 'Not found' } })),
    });
    await shows(page, 'hello@demo.test');
    await waitUntil(
      () => page.server.to('GET', FORM_URL).length === 1 && !page.text().includes('Loading'),
      'the form answer',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(page.root.querySelector('form')).to.equal(null);
    expect(page.text()).to.contain('We reply to every request within 5 business days.');
    expect(page.server.logs.filter((log) => JSON.stringify(log.body).includes('custom-forms'))).to.have.length(0);
    await expect(page.host).shadowDom.to.be.accessible();
  });

  it("shows the channel's contacts page blocks when it has one", async () => {
    const page = render(ContactsPage, {
      path: '/contacts',
      pages: [{ id: 9, name: 'Contacts', alt_name: 'Get in touch', url: '/contacts' }],
      setup: withForm(),
    });
    page.server.on(
      'GET',
      `${API}/pages/contacts`,
      ok({
        id: 9,
        name: 'Contacts',
        url: '/contacts',
        blocks: [{ type: 'paragraph', html: '<p>Our office is open weekdays.</p>' }],
      }),
    );
    await shows(page, 'Our office is open weekdays.');
    expect(one(page, 'h1').textContent).to.equal('Get in touch');
  });

  it('speaks French, validation messages included', async () => {
    const page = render(ContactsPage, { path: '/contacts', lang: 'fr', setup: withForm() });
    await shows(page, 'Nous répondons à chaque demande dans un délai de 5 jours ouvrables.');
    submit(page);
    await waitUntil(() => errorOf(page, 'Your name') !== '', 'the errors');
    expect(errorOf(page, 'Your name')).to.equal('Ce champ est obligatoire');
    expect(one(page, 'h1').textContent).to.equal('Nous joindre');
  });
});

describe('site simulate page', () => {
  const media = window.MediaSource;
  const canPlay = HTMLMediaElement.prototype.canPlayType;
  afterEach(() => {
    window.MediaSource.isTypeSupported = media.isTypeSupported.bind(media);
    HTMLMediaElement.prototype.canPlayType = canPlay;
  });

  it('lists its checks with a verdict each, and a summary', async () => {
    window.MediaSource.isTypeSupported = (type) => type.includes('avc1.42E01E');
    HTMLMediaElement.prototype.canPlayType = () => '';
    const page = render(SimulatePage, { path: '/simulate' });
    await shows(page, 'What we checked');
    const checks = all(page, '.checks li');
    expect(checks.map((li) => li.querySelector('.what')?.textContent)).to.deep.equal([
      'Video playback',
      'Local storage',
      'Cookies',
      'Screen',
      'Time zone',
      'Language',
    ]);
    expect(checks[0]!.textContent).to.contain('Media Source Extensions');
    expect(checks[1]!.className).to.contain('pass');
    expect(checks[4]!.textContent).to.contain('America/New_York');
    expect(checks[5]!.textContent).to.contain('English');
    expect(one(page, '[part="summary"]').textContent).to.match(/^This device can watch our streams\./);
    await expect(page.host).shadowDom.to.be.accessible();
  });

  it('says what to do when the browser cannot play the streams', async () => {
    window.MediaSource.isTypeSupported = () => false;
    HTMLMediaElement.prototype.canPlayType = () => '';
    const page = render(SimulatePage, { path: '/simulate', lang: 'fr' });
    await shows(page, 'Ce navigateur ne peut pas lire nos diffusions.');
    expect(one(page, '[part="summary"]').textContent).to.contain('ne peut pas encore regarder');
    expect(one(page, 'h1').textContent).to.equal('Simulation');
  });
});
