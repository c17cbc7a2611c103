/** The site's route table (src/lib/routes.ts): every route, digits-only ids, channel pages, the base. */
import { expect } from '@open-wc/testing';
import { matchRoute, normaliseBase, pathBelowBase, ROUTES, routePath, withBase } from '../../../src/lib/routes.js';

describe('routes', () => {
  it('every route of the table opens itself, with its parameters checked', () => {
    const sample: Record<string, string> = { id: '12', uuid: '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b' };
    for (const [name, pattern] of Object.entries(ROUTES)) {
      const path = pattern.replace(/:(\w+)/g, (_, key: string) => sample[key]!);
      expect(matchRoute(path)?.name, path).to.equal(name);
    }
    expect(matchRoute('/watch/12')?.params).to.deep.equal({ id: '12' });
    expect(matchRoute('/watch/12/')?.name, 'a trailing slash').to.equal('watch');
  });

  it('ids are digits only; anything else, and every unknown path, is no route', () => {
    for (const path of [
      '/watch/abc',
      '/watch/12a',
      '/watch/',
      '/select-package/-1',
      '/watch/1234567890123',
      '/nope',
      '/profile/nope',
      '/share/1/not-a-uuid',
    ]) {
      expect(matchRoute(path), path).to.equal(undefined);
    }
  });

  it('opens a channel page by its own path, and keeps the query', () => {
    const pages = [{ path: '/season-tickets', name: 'Season tickets', id: 4 }];
    const route = matchRoute('/season-tickets/', { trk: 'mail' }, pages);
    expect(route).to.deep.include({ name: 'page', path: '/season-tickets', query: { trk: 'mail' } });
    expect(matchRoute('/about', {}, [{ path: '/about', name: 'x', id: 1 }])?.name, 'the table first').to.equal('about');
  });

  it('reads and writes paths under a base', () => {
    expect(normaliseBase(undefined)).to.equal('/');
    expect(normaliseBase('/tv/')).to.equal('/tv');
    expect(pathBelowBase('/tv/watch/3', '/tv')).to.equal('/watch/3');
    expect(pathBelowBase('/tv', '/tv')).to.equal('/');
    expect(pathBelowBase('/tvguide', '/tv'), 'not a sub-path').to.equal(undefined);
    expect(withBase('/watch/3', '/tv')).to.equal('/tv/watch/3');
    expect(withBase('/', '/tv')).to.equal('/tv/');
    expect(routePath('share', { id: 3, uuid: 'a b' })).to.equal('/share/3/a%20b');
  });
});
