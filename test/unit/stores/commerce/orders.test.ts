/** The one `poll()` of an order's status (src/stores/commerce/orders.ts), on a fake clock. */
import { expect } from '@open-wc/testing';
import { MAX_WAIT_MS, poll, POLL_MS } from '../../../../src/stores/commerce/orders.js';
import { installWorld, settle, T0, teardown, type World } from '../../helpers.js';

describe('poll()', () => {
  let w: World;
  beforeEach(() => {
    w = installWorld();
  });
  afterEach(teardown);

  it('asks every 2 s until settled, and not after', async () => {
    const answers = [1, 2, 3, 4];
    const asked: number[] = [];
    const result = settle(
      poll(
        async () => (asked.push(w.clock.now - T0), answers.shift()!),
        (n) => n === 3,
      ),
    );
    await w.advance(POLL_MS - 1);
    expect(asked, 'nothing before 2 s').to.deep.equal([]);
    for (let i = 0; i < 5; i++) await w.advance(POLL_MS);
    expect((await result).value).to.deep.equal({ settled: true, value: 3 });
    expect(asked).to.deep.equal([POLL_MS, 2 * POLL_MS, 3 * POLL_MS]);
  });

  it('is bounded: after the wait it answers the last value, not settled', async () => {
    let asked = 0;
    const result = settle(
      poll(
        async () => ++asked,
        () => false,
      ),
    );
    for (let t = 0; t < MAX_WAIT_MS + 5 * POLL_MS; t += POLL_MS) await w.advance(POLL_MS);
    expect((await result).value).to.deep.equal({ settled: false, value: MAX_WAIT_MS / POLL_MS });
    expect(asked).to.equal(MAX_WAIT_MS / POLL_MS);
  });

  it('a failed request stops it with that error; an abort stops it at once', async () => {
    let asked = 0;
    const failing = settle(
      poll(
        async () => {
          asked++;
          throw new Error('offline');
        },
        () => false,
      ),
    );
    await w.advance(POLL_MS);
    await w.advance(POLL_MS);
    expect(((await failing).error as Error).message).to.equal('offline');
    expect(asked).to.equal(1);

    const controller = new AbortController();
    const aborted = settle(
      poll(
        async () => ++asked,
        () => false,
        { signal: controller.signal },
      ),
    );
    controller.abort();
    await w.advance(POLL_MS);
    expect((await aborted).error).to.not.equal(undefined);
    expect(asked).to.equal(1);
  });
});
