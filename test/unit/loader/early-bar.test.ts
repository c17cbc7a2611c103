/**
 * The bar under the loader's early video (src/loader/early-bar.ts): what the player's own bar shows of such a video,
 * in the player's texts and language, acting on the video itself, and nothing once stopped.
 */
import { expect } from '@open-wc/testing';
import { earlyBar } from '../../../src/loader/early-bar.js';
import { MEDIA_BAR_TEXTS } from '../../../src/i18n/ad-label.js';
import { playerEn } from '../../../src/i18n/player-en.js';
import { fr } from '../../../src/i18n/fr.js';

const parts = (bar: HTMLElement) => [...bar.querySelectorAll('[part]')].map((el) => el.getAttribute('part'));

describe('the early video’s bar', () => {
  let video: HTMLVideoElement;
  beforeEach(() => {
    video = document.createElement('video');
    document.body.appendChild(video);
  });
  afterEach(() => video.remove());

  it('offers the speed of an on-demand video, in English, and sets it on the video', () => {
    const { element, stop } = earlyBar(video, false, 'en');
    expect(element.getAttribute('part')).to.equal('media-bar');
    expect(element.getAttribute('role')).to.equal('group');
    expect(element.getAttribute('aria-label')).to.equal('Playback');
    expect(parts(element)).to.deep.equal(['speed', 'button pip']);
    const select = element.querySelector('select')!;
    expect(element.querySelector('[part="speed"]')!.textContent).to.match(/^Speed/);
    expect([...select.options].map((o) => [o.value, o.text])).to.deep.equal([
      ['0.5', '0.5×'],
      ['0.75', '0.75×'],
      ['1', 'Normal'],
      ['1.25', '1.25×'],
      ['1.5', '1.5×'],
      ['2', '2×'],
    ]);
    expect(select.value).to.equal('1');
    select.value = '1.5';
    select.dispatchEvent(new Event('change'));
    expect(video.playbackRate).to.equal(1.5);
    stop();
  });

  it('follows a speed set elsewhere, one outside its list too', async () => {
    const { element, stop } = earlyBar(video, false, 'en');
    const select = element.querySelector('select')!;
    video.playbackRate = 1.75;
    await new Promise((resolve) => video.addEventListener('ratechange', resolve, { once: true }));
    expect(select.value).to.equal('1.75');
    expect(select.selectedOptions[0]!.text).to.equal('1.75×');
    stop();
  });

  it('speaks French where the player does, with the player’s own texts', () => {
    const { element, stop } = earlyBar(video, false, 'fr');
    expect(element.getAttribute('aria-label')).to.equal('Lecture');
    // Outside the player's frame, it names its language itself.
    expect(element.lang).to.equal('fr');
    expect(element.querySelector('[part="speed"] span')!.textContent).to.equal('Vitesse');
    expect(element.querySelector('select')!.selectedOptions[0]!.text).to.equal('Normale');
    expect(element.querySelector('[part="button pip"]')!.textContent).to.equal('Image dans l’image');
    // The player's texts are these very ones.
    expect(playerEn.media).to.include(MEDIA_BAR_TEXTS.en);
    expect(fr.player.media).to.include(MEDIA_BAR_TEXTS.fr);
    stop();
  });

  it('offers Go to live for a live stream (no speed), at the edge when there is no window yet', () => {
    const { element, stop } = earlyBar(video, true, 'en');
    expect(parts(element)).to.deep.equal(['button live', 'button pip']);
    const live = element.querySelector<HTMLButtonElement>('[part="button live"]')!;
    expect(live.dataset.state).to.equal('edge');
    expect(live.textContent).to.equal('Live');
    expect(live.className).to.equal('btn live-edge');
    stop();
  });

  it('shows picture-in-picture as a toggle, not pressed', () => {
    const { element, stop } = earlyBar(video, false, 'en');
    expect(element.querySelector('[part="button pip"]')!.getAttribute('aria-pressed')).to.equal('false');
    stop();
    video.disablePictureInPicture = true;
    const without = earlyBar(video, false, 'en');
    expect(parts(without.element)).to.deep.equal(['speed']);
    without.stop();
  });

  it('is removed when stopped, and follows the video no more', async () => {
    const { element, stop } = earlyBar(video, false, 'en');
    document.body.appendChild(element);
    stop();
    expect(element.isConnected).to.equal(false);
    video.playbackRate = 2;
    await new Promise((resolve) => video.addEventListener('ratechange', resolve, { once: true }));
    expect(element.querySelector('select')!.value).to.equal('1');
  });
});
