/** The contact form's phone rule (src/stores/site/content.ts `isPhone`), the spec's section 5. */
import { expect } from '@open-wc/testing';
import { isPhone } from '../../../../src/stores/site/content.js';

describe('the contact form’s phone rule', () => {
  it('takes 10 to 14 digits with an optional plus and separators, and digits in brackets', () => {
    for (const phone of [
      '5550102000',
      '+1 555 010 2000',
      '+1 (555) 010-2000',
      '555.010.2000',
      '+44 20 7946 0958 12',
      '(5550102000)',
      '(555)0102000',
      '[555] 010 2000',
      '[555][010][2000]',
    ])
      expect(isPhone(phone), phone).to.equal(true);
  });

  it('refuses fewer than 10 or more than 14 digits, letters, a plus elsewhere than first', () => {
    for (const phone of [
      '555010200',
      '+1 (555) 010-2000-12345',
      '555-CALL-NOW',
      '555+0102000',
      '1 555 010 2000 x12',
      '',
    ])
      expect(isPhone(phone), phone).to.equal(false);
  });
});
