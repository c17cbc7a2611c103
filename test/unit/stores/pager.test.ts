/**
 * The stores' one paged list (src/stores/pager.ts), with a scripted `fetchPage`: pages in order, a query moved on
 * from never shown, a failure of "more" keeping the list, an owner's own status, and a refresh of a long list.
 */
import { expect } from '@open-wc/testing';
import { ApiError } from '../../../src/api/errors.js';
import { createPager, type Page, type PageRequest, type Settled } from '../../../src/stores/pager.js';
import { flush } from '../helpers.js';

/** A `fetchPage` whose answers the test releases one by one, recording what each request asked. */
function scripted<S extends string = never>() {
  const asked: (PageRequest & { query: string })[] = [];
  const pending: { resolve(page: Page<string> | Settled<S>): void; reject(error: unknown): void }[] = [];
  const fetchPage = (query: string, request: PageRequest) =>
    new Promise<Page<string> | Settled<S>>((resolve, reject) => {
      asked.push({ query, ...request });
      pending.push({ resolve, reject });
    });
  const page = (query: string, from: number, count: number, total: number): Page<string> => ({
    data: Array.from({ length: count }, (_, i) => `${query}${from + i}`),
    meta: { total },
  });
  return { asked, pending, fetchPage, page };
}

describe('pager', () => {
  it('shows a query from its first page, then "more" asks from where the list ends until the total', async () => {
    const s = scripted();
    const pager = createPager(2, s.fetchPage);
    expect(pager.$state.get().status).to.equal('idle');
    pager.show('a');
    expect(pager.$state.get()).to.include({ status: 'loading', total: 0 });
    s.pending[0]!.resolve(s.page('a', 0, 2, 3));
    await flush();
    expect(pager.$state.get()).to.deep.include({ status: 'ready', items: ['a0', 'a1'], total: 3 });
    pager.more();
    expect(pager.$state.get().loadingMore).to.equal(true);
    pager.more();
    expect(
      s.asked.map((r) => [r.offset, r.limit]),
      'one "more" at a time',
    ).to.deep.equal([
      [0, 2],
      [2, 2],
    ]);
    s.pending[1]!.resolve(s.page('a', 2, 1, 3));
    await flush();
    expect(pager.$state.get()).to.deep.include({ items: ['a0', 'a1', 'a2'], loadingMore: false });
    pager.more();
    expect(s.asked, 'nothing past the total').to.have.length(2);
  });

  it('a page whose unreadable records were left out still ends where the server’s did: "more" goes on from there', async () => {
    const s = scripted();
    const pager = createPager(3, s.fetchPage);
    pager.show('a');
    // Three records on the server's first page, one of them left out by the reader.
    s.pending[0]!.resolve({ data: ['a0', 'a2'], meta: { total: 5, skipped: 1 } });
    await flush();
    pager.more();
    s.pending[1]!.resolve({ data: ['a3', 'a4'], meta: { total: 5 } });
    await flush();
    expect(s.asked.map((r) => r.offset)).to.deep.equal([0, 3]);
    // The count shown is what can be read: the server's five, less the one left out.
    expect(pager.$state.get()).to.deep.include({ items: ['a0', 'a2', 'a3', 'a4'], read: 5, total: 4 });
    pager.more();
    expect(s.asked, 'nothing past the total').to.have.length(2);
  });

  it('never shows the answer to a query the viewer moved on from, and aborts its request', async () => {
    const s = scripted();
    const pager = createPager(2, s.fetchPage);
    pager.show('a');
    pager.show('b');
    expect(s.asked[0]!.signal.aborted).to.equal(true);
    s.pending[1]!.resolve(s.page('b', 0, 1, 1));
    s.pending[0]!.resolve(s.page('a', 0, 2, 2));
    await flush();
    expect(pager.$state.get().items).to.deep.equal(['b0']);
    pager.show(undefined);
    expect(pager.$state.get()).to.include({ status: 'idle', total: 0 });
  });

  it('a failed first page shows the error; a failed "more" keeps the list, and retry asks that page again', async () => {
    const s = scripted();
    const pager = createPager(2, s.fetchPage);
    pager.show('a');
    s.pending[0]!.reject(new ApiError('network', 'offline'));
    await flush();
    expect(pager.$state.get()).to.include({ status: 'error' });
    pager.retry();
    s.pending[1]!.resolve(s.page('a', 0, 2, 4));
    await flush();
    pager.more();
    s.pending[2]!.reject(new Error('offline'));
    await flush();
    const state = pager.$state.get();
    expect(state).to.deep.include({ status: 'ready', items: ['a0', 'a1'], loadingMore: false });
    expect(state.error?.kind).to.equal('network');
    pager.retry();
    expect(s.asked[3]).to.include({ offset: 2, limit: 2 });
  });

  it("settles on an owner's own status with an empty list", async () => {
    const s = scripted<'signed-out'>();
    const pager = createPager(2, s.fetchPage, { initial: 'loading' });
    expect(pager.$state.get().status, 'loading before its first query').to.equal('loading');
    pager.show('a');
    s.pending[0]!.resolve({ settled: 'signed-out' });
    await flush();
    expect(pager.$state.get()).to.deep.equal({ status: 'signed-out', items: [], total: 0, loadingMore: false });
  });

  it('a refresh asks, fresh, for as many as are shown (at most maxLimit) and keeps them on screen meanwhile', async () => {
    const s = scripted();
    const pager = createPager(2, s.fetchPage, { maxLimit: 3 });
    pager.show('a');
    s.pending[0]!.resolve(s.page('a', 0, 2, 9));
    await flush();
    pager.more();
    s.pending[1]!.resolve(s.page('a', 2, 2, 9));
    await flush();
    pager.refresh();
    expect(pager.$state.get().items).to.have.length(4);
    expect(s.asked[2]).to.include({ offset: 0, limit: 3, cache: false });
    s.pending[2]!.resolve(s.page('a', 0, 3, 9));
    await flush();
    expect(pager.$state.get().items).to.deep.equal(['a0', 'a1', 'a2']);
  });
});
