/** JSON for the wire (src/lib/json.ts) on a page whose built-in prototypes carry `toJSON` methods of a library. */
import { expect } from '@open-wc/testing';
import { toJson } from '../../../src/lib/json.js';

type Patched = { toJSON?: unknown };

describe('toJson', () => {
  afterEach(() => {
    delete (Array.prototype as Patched).toJSON;
    delete (String.prototype as Patched).toJSON;
  });

  it('ignores the toJSON a host library gave arrays and strings, and puts them back at once', () => {
    // Prototype.js-style: arrays and strings serialize themselves as JSON text, which JSON.stringify quotes again.
    const arrayToJson = function (this: unknown[]) {
      return `[${this.join(', ')}]`;
    };
    const stringToJson = function (this: string) {
      return `"${this}"`;
    };
    (Array.prototype as Patched).toJSON = arrayToJson;
    (String.prototype as Patched).toJSON = stringToJson;
    expect(JSON.stringify({ tags: ['a', 'b'] })).to.equal('{"tags":"[a, b]"}');
    expect(toJson({ tags: ['a', 'b'], key: 'demo', n: 1 })).to.equal('{"tags":["a","b"],"key":"demo","n":1}');
    expect((Array.prototype as Patched).toJSON).to.equal(arrayToJson);
    expect((String.prototype as Patched).toJSON).to.equal(stringToJson);
    expect(Object.keys(Array.prototype)).to.deep.equal(['toJSON']);
  });

  it('keeps a Date as its ISO text and an object of our own toJSON as it says', () => {
    const when = new Date(Date.UTC(2026, 10, 26, 12));
    expect(toJson({ when, own: { toJSON: () => 'mine' } })).to.equal(
      '{"when":"2026-11-26T12:00:00.000Z","own":"mine"}',
    );
  });
});
