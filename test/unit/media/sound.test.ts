/** One player with sound at a time (src/media/sound.ts). */
import { expect } from '@open-wc/testing';
import { exclusiveSound } from '../../../src/media/sound.js';

describe('one player with sound', () => {
  it('a video that starts playing with sound mutes the others, which keep playing', () => {
    const [a, b, c] = [0, 1, 2].map(() => document.createElement('video')) as [
      HTMLVideoElement,
      HTMLVideoElement,
      HTMLVideoElement,
    ];
    const offs = [a, b, c].map((v) => exclusiveSound(v));
    for (const v of [a, b, c]) Object.defineProperty(v, 'paused', { configurable: true, get: () => false });
    a.muted = false;
    b.muted = false;
    c.muted = true;
    b.dispatchEvent(new Event('playing'));
    expect([a.muted, b.muted, c.muted]).to.deep.equal([true, false, true]);
    // Unmuting another one while it plays takes the sound over.
    c.muted = false;
    c.dispatchEvent(new Event('volumechange'));
    expect([a.muted, b.muted, c.muted]).to.deep.equal([true, true, false]);
    // A removed player no longer takes part.
    offs[0]!();
    a.muted = false;
    a.dispatchEvent(new Event('playing'));
    expect(c.muted).to.equal(false);
    offs.slice(1).forEach((off) => off());
  });
});
