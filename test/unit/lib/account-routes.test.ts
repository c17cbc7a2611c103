/** The account screens' addresses (src/lib/account-routes.ts): one-time links, callbacks, screens next to a page. */
import { expect } from '@open-wc/testing';
import {
  accountScreenHref,
  accountScreenOf,
  parseAccountRoute,
  withoutOneTimeParams,
} from '../../../src/lib/account-routes.js';

describe('account routes', () => {
  it('reads the one-time links and callbacks from the path and query', () => {
    expect(parseAccountRoute('https://s.test/verify-email?email=a%40b.test&expires=9&signature=s')).to.deep.equal({
      kind: 'verify-email',
      email: 'a@b.test',
      expires: '9',
      signature: 's',
    });
    expect(parseAccountRoute('https://s.test/site/password-reset?email=a%40b.test&token=t')).to.deep.equal({
      kind: 'password-reset',
      email: 'a@b.test',
      token: 't',
    });
    expect(parseAccountRoute('https://s.test/confirm-account-deletion?email=a%40b.test&token=t')?.kind).to.equal(
      'confirm-deletion',
    );
    expect(parseAccountRoute('https://s.test/auth/login/facebook/callback?error=access_denied')).to.deep.equal({
      kind: 'social-callback',
      provider: 'facebook',
      code: '',
      state: '',
      iss: '',
      error: 'access_denied',
    });
    expect(
      parseAccountRoute('https://s.test/auth/login/google/callback?code=c&state=s&iss=https%3A%2F%2Faccounts.test'),
    ).to.deep.equal({
      kind: 'social-callback',
      provider: 'google',
      code: 'c',
      state: 's',
      iss: 'https://accounts.test',
      error: '',
    });
    expect(parseAccountRoute('https://s.test/auth/login/twitter/callback?code=x'), 'unknown provider').to.equal(
      undefined,
    );
    expect(parseAccountRoute('https://s.test/verify-email'), 'no values (after clean-up)').to.equal(undefined);
    expect(parseAccountRoute('https://s.test/profile?email=a%40b.test&token=t'), 'another path').to.equal(undefined);
  });

  it('names the screen of an account path, and the address of another screen next to it', () => {
    expect(
      [
        '/login',
        '/tv/registration/',
        '/a/verify-notice',
        '/password-reset-request',
        '/verify-email',
        '/blogin',
        '/',
      ].map(accountScreenOf),
    ).to.deep.equal(['sign-in', 'register', 'verify-notice', 'reset-request', undefined, undefined, undefined]);
    expect(accountScreenHref('https://s.test/tv/login?lang=fr#top', 'register')).to.equal(
      'https://s.test/tv/registration?lang=fr#top',
    );
    expect(accountScreenHref('https://s.test/registration/', 'sign-in'), 'a trailing slash stays').to.equal(
      'https://s.test/login/',
    );
    expect(accountScreenHref('https://s.test/password-reset?keep=1', 'reset-request')).to.equal(
      'https://s.test/password-reset-request?keep=1',
    );
    expect(accountScreenHref('https://s.test/auth/login/google/callback', 'sign-in')).to.equal('https://s.test/login');
    expect(accountScreenHref('https://s.test/account.html', 'register'), "another path: the host's").to.equal(
      undefined,
    );
    expect(accountScreenHref('https://s.test/my-login', 'register')).to.equal(undefined);
  });

  it("removes only the route's one-time values", () => {
    const href = 'https://s.test/auth/login/google/callback?code=c&state=s&scope=openid&keep=1#top';
    const route = parseAccountRoute(href)!;
    expect(withoutOneTimeParams(href, route)).to.equal('https://s.test/auth/login/google/callback?keep=1#top');
  });
});
