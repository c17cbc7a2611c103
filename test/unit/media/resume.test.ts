// Resume positions (src/media/resume.ts): kept per channel and viewer in local storage ('rudy_' prefix), only for
// videos of a minute or more and away from both ends, the newest 50, for 30 days.
import { expect } from '@open-wc/testing';
import {
  RESUME_LIFETIME_MS,
  RESUME_MAX_ITEMS,
  forgetResume,
  resumePosition,
  saveResume,
} from '../../../src/media/resume.js';
import { installWorld, teardown, type World } from '../helpers.js';

describe('resume positions', () => {
  let world: World;
  beforeEach(() => {
    world = installWorld();
  });
  afterEach(teardown);

  const guest = { channel: 'demo' };
  const user = { channel: 'demo', userId: 7 };

  it('keeps a position per channel and viewer, under resume.{channel}.{user id | guest}', () => {
    saveResume(guest, 'vod-3', 42.26, 600);
    saveResume(user, 'vod-3', 120, 600);
    expect(resumePosition(guest, 'vod-3')).to.equal(42.3);
    expect(resumePosition(user, 'vod-3')).to.equal(120);
    expect(resumePosition({ channel: 'demo-fr' }, 'vod-3')).to.equal(undefined);
    expect(resumePosition({ channel: 'demo', userId: 8 }, 'vod-3')).to.equal(undefined);
    expect(world.storage.get('resume.demo.guest', (_v): _v is unknown => true)).to.deep.equal({
      'vod-3': [42.3, world.clock.now],
    });
    expect(world.storage.get('resume.demo.7', (_v): _v is unknown => true)).to.have.property('vod-3');
  });

  it('not for videos under a minute, nor in the first 5 s or the last 10 s (which forget the position)', () => {
    saveResume(guest, 'clip-1', 30, 59);
    expect(resumePosition(guest, 'clip-1')).to.equal(undefined);
    saveResume(guest, 'vod-1', 4, 600);
    expect(resumePosition(guest, 'vod-1')).to.equal(undefined);
    saveResume(guest, 'vod-1', 300, 600);
    expect(resumePosition(guest, 'vod-1')).to.equal(300);
    saveResume(guest, 'vod-1', 595, 600);
    expect(resumePosition(guest, 'vod-1')).to.equal(undefined);
    saveResume(guest, 'vod-1', 300, 600);
    saveResume(guest, 'vod-1', 1, 600);
    expect(resumePosition(guest, 'vod-1')).to.equal(undefined);
    saveResume(guest, 'live', 300, Infinity);
    expect(resumePosition(guest, 'live')).to.equal(undefined);
  });

  it('Start over forgets it; the newest 50 are kept; they last 30 days', async () => {
    saveResume(guest, 'vod-1', 100, 600);
    forgetResume(guest, 'vod-1');
    expect(resumePosition(guest, 'vod-1')).to.equal(undefined);
    for (let i = 0; i <= RESUME_MAX_ITEMS; i++) {
      saveResume(guest, `vod-${i}`, 100 + i, 600);
      await world.advance(1);
    }
    expect(resumePosition(guest, 'vod-0')).to.equal(undefined);
    expect(resumePosition(guest, 'vod-1')).to.equal(101);
    expect(resumePosition(guest, `vod-${RESUME_MAX_ITEMS}`)).to.equal(100 + RESUME_MAX_ITEMS);
    await world.advance(RESUME_LIFETIME_MS + 1);
    expect(resumePosition(guest, 'vod-1')).to.equal(undefined);
  });
});
