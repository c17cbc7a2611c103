/**
 * The site's router (src/stores/router.ts) with its guards and page memory (src/stores/site/navigation.ts): unknown
 * paths to /404 (once the channel's pages are known), the base, the history. The route table: lib/routes.test.ts.
 */
import { expect } from '@open-wc/testing';
import { resetEnv, setEnv } from '../../../src/lib/env.js';
import { fakeAddress } from '../helpers.js';
import { matchRoute } from '../../../src/lib/routes.js';
import { createRouter, type Router } from '../../../src/stores/router.js';
import { rememberPage, reportedPath, returnPath, siteGuard } from '../../../src/stores/site/navigation.js';
import { $settings, $user } from '../../../src/stores/session.js';
import { keepOuterTracker, outerTracker } from '../../../src/stores/analytics/datalake.js';
import { ExpiringStorage, MemoryStorage } from '../../../src/lib/storage.js';

describe('page views', () => {
  it("report a shared clip's page without its uuid (the link's access), and every other path as it is", () => {
    expect(reportedPath('/share/9/3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b')).to.equal('/share/9');
    expect(reportedPath('/site/share/9/3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b')).to.equal('/site/share/9');
    expect(reportedPath('/watch/12')).to.equal('/watch/12');
    expect(reportedPath('/profile/clips')).to.equal('/profile/clips');
  });
});

describe('router', () => {
  let router: Router | undefined;
  afterEach(() => {
    router?.destroy();
    router = undefined;
    resetEnv();
  });

  it('starts at the deep link of the page, navigates with history entries, and follows back', () => {
    const page = fakeAddress('/tv/watch/12?trk=mail');
    router = createRouter('/tv');
    expect(router.$route.get()).to.deep.include({ name: 'watch', params: { id: '12' }, query: { trk: 'mail' } });
    router.navigate('/profile/edit');
    expect(page.pushed).to.deep.equal(['/tv/profile/edit']);
    expect(router.$route.get().name).to.equal('profileEdit');
    expect(router.href('/upcoming?sport=hockey')).to.equal('/tv/upcoming?sport=hockey');
    expect(router.href('/watch/{id}'), 'a link template keeps its placeholder').to.equal('/tv/watch/{id}');
    page.back();
    expect(router.$route.get()).to.deep.include({ name: 'watch', params: { id: '12' } });
  });

  it('a path no route answers waits for the channel pages, then opens the page or redirects to /404', () => {
    const page = fakeAddress('/season-tickets');
    router = createRouter();
    expect(router.$route.get().name).to.equal('pending');
    router.setPages([{ path: '/season-tickets', name: 'Season tickets', id: 4 }]);
    expect(router.$route.get()).to.deep.include({ name: 'page', params: { id: '4' } });
    router.navigate('/watch/abc');
    expect(router.$route.get().name).to.equal('notFound');
    expect(page.path, 'the address says /404').to.equal('/404');
    expect(page.pushed, 'one entry, for the 404 itself').to.deep.equal(['/404']);
    router.navigate('/404');
    expect(page.pushed, 'no entry for the page the viewer is on').to.deep.equal(['/404']);
  });

  it('a page path outside the base is the 404; destroy stops following the history', () => {
    const page = fakeAddress('/elsewhere');
    router = createRouter('/tv');
    router.setPages([]);
    expect(router.$route.get().name).to.equal('notFound');
    router.navigate('/faq');
    router.destroy();
    page.back();
    expect(router.$route.get().name, 'no longer follows').to.equal('faq');
  });
});

describe('router guards', () => {
  let router: Router | undefined;
  afterEach(() => {
    router?.destroy();
    router = undefined;
    $user.set(undefined);
    $settings.set(undefined);
    resetEnv();
  });

  it('a guard sends a change elsewhere: the address is replaced, with the query, and previous() remembers', () => {
    const page = fakeAddress('/tv/');
    const seen: string[] = [];
    router = createRouter('/tv', {
      guard: (to, from, via) => {
        seen.push(`${via}:${from?.name ?? '-'}>${to.name}`);
        return to.name === 'buy' ? '/login?next=buy' : undefined;
      },
    });
    router.navigate('/faq');
    router.navigate('/buy');
    expect(router.$route.get()).to.deep.include({ name: 'login', query: { next: 'buy' } });
    expect(page.path).to.equal('/tv/login?next=buy');
    expect(router.previous()?.name).to.equal('faq');
    expect(seen).to.include.members(['start:->home', 'push:home>faq', 'push:faq>buy']);
  });

  it('a guard that loops is cut short instead of hanging', () => {
    fakeAddress('/');
    let calls = 0;
    router = createRouter('/', { guard: (to) => (calls++, to.name === 'faq' ? '/about' : '/faq') });
    expect(calls).to.be.below(10);
    expect(['faq', 'about']).to.include(router.$route.get().name);
  });

  it('the site guard: temporary password, auth pages when signed in, /buy from login, device linking', () => {
    const page = fakeAddress('/login');
    setEnv({
      storage: new ExpiringStorage(
        () => new MemoryStorage(),
        () => Date.now(),
      ),
    });
    router = createRouter('/', { guard: siteGuard });
    expect(router.$route.get().name, 'a guest may sign in').to.equal('login');
    router.navigate('/buy');
    expect(router.$route.get().name, 'a guest from login to /buy is sent back').to.equal('login');
    expect(page.pushed, 'and no history entry is added').to.deep.equal([]);
    router.navigate('/profile/sessions/add');
    expect(router.$route.get().name, 'no remote auth: the orders').to.equal('profile');
    $settings.set({ auth: { remote_auth: true } } as never);
    router.navigate('/profile/sessions/add');
    expect(router.$route.get().name).to.equal('profileSessionsAdd');
    router.navigate('/faq');
    // The site remembers each page it shows (App: routeShown); a sign-in returns there.
    rememberPage(matchRoute('/faq')!, undefined);
    $user.set({ id: 1, email: 'a@b.c', temporary_password: true } as never);
    router.recheck();
    expect(router.$route.get().name, 'a temporary password holds the viewer on /profile/edit').to.equal('profileEdit');
    router.navigate('/watch/3');
    expect(router.$route.get().name).to.equal('profileEdit');
    $user.set({ id: 1, email: 'a@b.c', temporary_password: false } as never);
    router.navigate('/login');
    expect(router.$route.get().name, 'signed in: away from login to the home page').to.equal('home');
    expect(page.path).to.equal('/');
    router.navigate('/password-reset');
    expect(router.$route.get().name, 'signed in: away from the reset page').to.equal('home');
    router.navigate('/registration');
    expect(router.$route.get().name, 'signed in: away from registration').to.equal('home');
    router.navigate('/verify-notice');
    expect(router.$route.get().name, 'not said to be verified: the notice stays').to.equal('verifyNotice');
    $user.set({ id: 1, email: 'a@b.c', temporary_password: false, email_verified: true } as never);
    router.navigate('/verify-notice');
    expect(router.$route.get().name, 'verified: away from the verification notice').to.equal('home');
    $user.set({ id: 1, email: 'a@b.c', temporary_password: false, email_verified: false } as never);
    router.navigate('/verify-notice');
    expect(router.$route.get().name, 'not verified yet: the notice stays').to.equal('verifyNotice');
    $user.set({ id: 1, email: 'a@b.c', temporary_password: false, email_verified: true } as never);
    router.navigate('/password-reset?email=a%40b.c&token=t-1');
    expect(router.$route.get().name, 'but not from a reset link: its page asks to sign out').to.equal('passwordReset');
    router.recheck();
    expect(page.path).to.equal('/password-reset?email=a%40b.c&token=t-1');
    router.navigate('/verify-email');
    expect(router.$route.get().name, 'verified: away from a bare verification page').to.equal('home');
    router.navigate('/verify-email?email=a%40b.c&expires=9&signature=s');
    expect(router.$route.get().name, 'but an emailed link still verifies').to.equal('verifyEmail');
  });

  it('the contract’s query names: modal opens an account screen that returns to the page, vod_id a library item', () => {
    const page = fakeAddress('/watch/7?modal=login&trk=x');
    setEnv({
      storage: new ExpiringStorage(
        () => new MemoryStorage(),
        () => Date.now(),
      ),
    });
    router = createRouter('/', { guard: siteGuard });
    expect(router.$route.get().name, 'a guest: the sign-in screen').to.equal('login');
    expect(page.path).to.equal('/login');
    expect(returnPath(), 'a sign-in there returns to the page, without the modal').to.equal('/watch/7?trk=x');
    router.navigate('/faq?modal=registration');
    expect(router.$route.get().name).to.equal('registration');
    router.navigate('/faq?modal=nothing-we-know');
    expect(router.$route.get(), 'an unknown modal: the page').to.deep.include({ name: 'faq' });
    router.navigate('/contacts?modal=toString');
    expect(router.$route.get(), 'a name every object has is no modal').to.deep.include({ name: 'contacts' });
    $user.set({ id: 1, email: 'a@b.c', temporary_password: false } as never);
    router.navigate('/about?modal=login&x=1');
    expect(router.$route.get(), 'signed in: the page itself').to.deep.include({ name: 'about', query: { x: '1' } });
    router.navigate('/faq?modal=forgot-password');
    expect(router.$route.get(), 'every account screen').to.deep.include({ name: 'faq', query: {} });
    router.navigate('/vod_library?vod_id=5');
    expect(router.$route.get()).to.deep.include({ name: 'watchLibrary', params: { id: '5' } });
    router.navigate('/vod_library?vod_id=abc');
    expect(router.$route.get().name, 'not an id: the library').to.equal('vodLibrary');
  });

  it('remembers the last page with its query (never an auth or error page) and keeps trk', () => {
    fakeAddress('/');
    const storage = new ExpiringStorage(
      () => new MemoryStorage(),
      () => Date.now(),
    );
    setEnv({ storage });
    expect(returnPath()).to.equal('/');
    rememberPage(matchRoute('/watch/7', { trk: 'x' })!, undefined);
    rememberPage(matchRoute('/login')!, undefined);
    rememberPage(matchRoute('/404')!, undefined);
    expect(returnPath()).to.equal('/watch/7?trk=x');
    keepOuterTracker('news-0', true);
    expect(outerTracker()).to.equal('news-0');
  });
});
