/** The channel's colours as CSS declarations (src/lib/colors.ts). */
import { expect } from '@open-wc/testing';
import { COLOR_VARIANTS, colorDeclarations, parseHex } from '../../../src/lib/colors.js';

describe('colorDeclarations', () => {
  it('declares the colour and its body-text-color variants 5 to 95', () => {
    expect(COLOR_VARIANTS['body-text-color']).to.deep.equal([5, 10, 20, 50, 70, 95]);
    expect(colorDeclarations({ 'body-text-color': '#336699' }).split('\n')).to.deep.equal([
      '--channel-body-text-color: #336699;',
      '--channel-body-text-color-5: rgba(51, 102, 153, 0.05);',
      '--channel-body-text-color-10: rgba(51, 102, 153, 0.1);',
      '--channel-body-text-color-20: rgba(51, 102, 153, 0.2);',
      '--channel-body-text-color-50: rgba(51, 102, 153, 0.5);',
      '--channel-body-text-color-70: rgba(51, 102, 153, 0.7);',
      '--channel-body-text-color-95: rgba(51, 102, 153, 0.95);',
    ]);
  });

  it('declares the variants of the other named colours', () => {
    const lines = colorDeclarations({
      'footer-background': '#000',
      'body-background': '#ffffff',
      'header-text-color': '#FF000080',
      accent: '#123456',
    }).split('\n');
    expect(lines).to.deep.equal([
      '--channel-footer-background: #000;',
      '--channel-footer-background-20: rgba(0, 0, 0, 0.2);',
      '--channel-footer-background-50: rgba(0, 0, 0, 0.5);',
      '--channel-footer-background-70: rgba(0, 0, 0, 0.7);',
      '--channel-body-background: #ffffff;',
      '--channel-body-background-10: rgba(255, 255, 255, 0.1);',
      '--channel-body-background-20: rgba(255, 255, 255, 0.2);',
      '--channel-body-background-50: rgba(255, 255, 255, 0.5);',
      '--channel-body-background-70: rgba(255, 255, 255, 0.7);',
      '--channel-header-text-color: #FF000080;',
      '--channel-header-text-color-50: rgba(255, 0, 0, 0.5);',
      '--channel-accent: #123456;',
    ]);
  });

  it('rejects non-hex values, which could inject CSS', () => {
    expect(
      colorDeclarations({
        a: 'red',
        b: 'rgb(1,2,3)',
        c: '#12345',
        d: '#336699; background: url(https://evil.test/x)',
        e: '#33669g',
        f: 'url(javascript:alert(1))',
        g: '',
      }),
    ).to.equal('');
    expect(parseHex('#abc')).to.deep.equal([170, 187, 204]);
    expect(parseHex('abc')).to.equal(undefined);
  });

  it('rejects odd colour names', () => {
    expect(
      colorDeclarations({
        'Body-Background': '#fff',
        'x;color:red': '#fff',
        '--x': '#fff',
        '1st': '#fff',
        'a b': '#fff',
        ['a'.repeat(42)]: '#fff',
      }),
    ).to.equal('');
    expect(colorDeclarations({ ['a'.repeat(41)]: '#fff' })).to.equal(`--channel-${'a'.repeat(41)}: #fff;`);
  });
});
