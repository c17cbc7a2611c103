/**
 * Prefixed, expiring storage (src/lib/storage.ts): prefix, lifetimes on a fake clock, untrusted contents, and
 * the fallback to memory when the browser's storage throws.
 */
import { expect } from '@open-wc/testing';
import {
  CHANNEL_CACHE_DATE,
  DEFAULT_LIFETIME_MS,
  ExpiringStorage,
  MemoryStorage,
  STORAGE_PREFIX,
  isString,
  type KeyValueStorage,
} from '../../../src/lib/storage.js';
import { storedValue } from '../../../src/loader/early.js';
import { T0, createClock } from '../helpers.js';

/** A MemoryStorage that can be made to throw, counting calls. */
class FlakyStorage extends MemoryStorage {
  failGet = false;
  failSet: (key: string) => boolean = () => false;
  sets = 0;
  override getItem(key: string): string | null {
    if (this.failGet) throw new DOMException('The operation is insecure.', 'SecurityError');
    return super.getItem(key);
  }
  override setItem(key: string, value: string): void {
    this.sets++;
    if (this.failSet(key)) throw new DOMException('Quota exceeded', 'QuotaExceededError');
    super.setItem(key, value);
  }
}

describe('ExpiringStorage', () => {
  let clock: ReturnType<typeof createClock>;
  let backing: FlakyStorage;
  let storage: ExpiringStorage;

  beforeEach(() => {
    clock = createClock();
    backing = new FlakyStorage();
    storage = new ExpiringStorage(
      () => backing,
      () => clock.now,
    );
  });

  it("writes under the 'rudy_' prefix as { v, e, t }", () => {
    expect(STORAGE_PREFIX).to.equal('rudy_');
    storage.set('lang', 'fr');
    expect(JSON.parse(backing.getItem('rudy_lang')!)).to.deep.equal({ v: 'fr', e: T0 + 31104e6, t: T0 });
    expect(backing.getItem('lang')).to.equal(null);
    expect(storage.get('lang')).to.equal('fr');
    expect(storage.inMemory).to.equal(false);
  });

  it('keeps a value for the default lifetime of 31104e6 ms, then drops it', () => {
    expect(DEFAULT_LIFETIME_MS).to.equal(31104e6);
    storage.set('country', 'US');
    clock.tick(31104e6 - 1);
    expect(storage.get('country')).to.equal('US');
    clock.tick(1);
    expect(storage.get('country')).to.equal(undefined);
    expect(backing.getItem('rudy_country'), 'expired entry removed').to.equal(null);
  });

  it('honours a custom lifetime', () => {
    storage.set('hash', { id: 1 }, 3_600_000);
    clock.tick(3_599_999);
    expect(storage.get('hash')).to.deep.equal({ id: 1 });
    clock.tick(1);
    expect(storage.get('hash')).to.equal(undefined);
  });

  for (const [label, raw] of [
    ['garbage JSON', '{not json'],
    ['a bare number', '5'],
    ['null', 'null'],
    ['no expiry', '{"v":"x"}'],
    ['a string expiry', '{"v":"x","e":"tomorrow"}'],
    ['no value', `{"e":${T0 + 1000}}`],
  ] as const) {
    it(`drops and removes ${label}`, () => {
      backing.setItem('rudy_key', raw);
      expect(storage.get('key')).to.equal(undefined);
      expect(backing.getItem('rudy_key')).to.equal(null);
    });
  }

  it('drops stored data written before the spec’s channel cache date, 2022-08-01; keeps what came after', () => {
    expect(new Date(CHANNEL_CACHE_DATE).toISOString()).to.equal('2022-08-01T00:00:00.000Z');
    const entry = (t: number | undefined) => JSON.stringify({ v: 'ak-old', e: T0 + 1000, t });
    backing.setItem('rudy_api_key.ck', entry(CHANNEL_CACHE_DATE - 1));
    expect(storage.get('api_key.ck')).to.equal(undefined);
    expect(backing.getItem('rudy_api_key.ck'), 'removed').to.equal(null);
    backing.setItem('rudy_api_key.ck', entry(CHANNEL_CACHE_DATE));
    expect(storage.get('api_key.ck')).to.equal('ak-old');
    // An entry that does not say when it was written (an earlier version of ours) is kept.
    backing.setItem('rudy_api_key.ck', entry(undefined));
    expect(storage.get('api_key.ck')).to.equal('ak-old');
    // One whose date is not a time is not trusted.
    for (const t of [null, '2026-01-01', true, {}]) {
      backing.setItem('rudy_api_key.ck', JSON.stringify({ v: 'ak-old', e: T0 + 1000, t }));
      expect(storage.get('api_key.ck'), JSON.stringify(t)).to.equal(undefined);
      expect(backing.getItem('rudy_api_key.ck'), 'removed').to.equal(null);
    }
  });

  it('applies the channel cache date to the loader’s reads too (src/loader/early.ts storedValue, every key)', () => {
    const key = 'visitor_id';
    const write = (t: unknown) =>
      localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify({ v: 'visitor-1', e: Date.now() + 1000, t }));
    try {
      write(CHANNEL_CACHE_DATE - 1);
      expect(storedValue(key), 'written before the date').to.equal(undefined);
      write('2026-01-01');
      expect(storedValue(key), 'a date that is not a time').to.equal(undefined);
      write(CHANNEL_CACHE_DATE);
      expect(storedValue(key)).to.deep.equal({ v: 'visitor-1' });
      write(undefined);
      expect(storedValue(key), 'no date (an earlier version of ours)').to.deep.equal({ v: 'visitor-1' });
    } finally {
      localStorage.removeItem(STORAGE_PREFIX + key);
    }
  });

  it('drops and removes a value its reader rejects', () => {
    storage.set('api_key.ck', 42);
    expect(storage.get('api_key.ck', isString)).to.equal(undefined);
    expect(backing.getItem('rudy_api_key.ck')).to.equal(null);
    storage.set('api_key.ck', 'ak');
    expect(storage.get('api_key.ck', isString)).to.equal('ak');
  });

  it('removes a value', () => {
    storage.set('a', 1);
    storage.remove('a');
    expect(storage.get('a')).to.equal(undefined);
    expect(backing.getItem('rudy_a')).to.equal(null);
  });

  it('falls back to memory when reading localStorage itself throws (sandboxed iframe)', () => {
    const s = new ExpiringStorage(
      () => {
        throw new DOMException('The document is sandboxed.', 'SecurityError');
      },
      () => clock.now,
    );
    expect(s.inMemory).to.equal(true);
    s.set('lang', 'fr');
    expect(s.get('lang')).to.equal('fr');
    clock.tick(31104e6);
    expect(s.get('lang')).to.equal(undefined);
  });

  it('falls back to memory when there is no storage at all', () => {
    const s = new ExpiringStorage(
      () => null,
      () => clock.now,
    );
    expect(s.inMemory).to.equal(true);
    s.set('x', 1);
    expect(s.get('x')).to.equal(1);
  });

  it('falls back to memory when the first write throws (storage exposed but unusable)', () => {
    const broken = new FlakyStorage();
    broken.failSet = () => true;
    const s = new ExpiringStorage(
      () => broken,
      () => clock.now,
    );
    expect(s.inMemory).to.equal(true);
    s.set('x', 'kept');
    expect(s.get('x')).to.equal('kept');
  });

  it('moves to memory for good when setItem throws later (quota) and keeps working', () => {
    storage.set('small', 1);
    backing.failSet = (key) => key === 'rudy_big';
    storage.set('big', 'x'.repeat(100));
    expect(storage.inMemory).to.equal(true);
    expect(storage.get('big')).to.equal('x'.repeat(100));
    const setsBefore = backing.sets;
    storage.set('after', 2);
    expect(storage.get('after')).to.equal(2);
    expect(backing.sets, 'the broken storage is not used again').to.equal(setsBefore);
  });

  it('moves to memory when getItem starts throwing, answering undefined instead of throwing', () => {
    storage.set('a', 1);
    backing.failGet = true;
    expect(storage.get('a')).to.equal(undefined);
    expect(storage.inMemory).to.equal(true);
    storage.set('a', 2);
    expect(storage.get('a')).to.equal(2);
  });

  it('works over the real localStorage', () => {
    const s = new ExpiringStorage(
      () => window.localStorage as KeyValueStorage,
      () => clock.now,
    );
    try {
      s.set('unit_test', { ok: true });
      expect(JSON.parse(window.localStorage.getItem('rudy_unit_test')!).v).to.deep.equal({ ok: true });
      expect(s.get('unit_test')).to.deep.equal({ ok: true });
    } finally {
      s.remove('unit_test');
    }
    expect(window.localStorage.getItem('rudy_unit_test')).to.equal(null);
  });
});
