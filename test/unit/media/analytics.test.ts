/** Video analytics (src/media/analytics.ts): the datalake's first frame and viewing time, mux-embed's beacons. */
import { expect, waitUntil } from '@open-wc/testing';
import { monitorVideo, VIEWING_EVERY_MS } from '../../../src/media/analytics.js';
import { analyticsAllowed } from '../../../src/stores/analytics/datalake.js';
import { videoReporting } from '../../../src/stores/analytics/video.js';
import { user } from '../../fixtures/contract.js';
import { installWorld, teardown, type World } from '../helpers.js';

describe('video analytics', () => {
  let world: World;
  beforeEach(() => {
    world = installWorld();
    world.server.on('GET', 'https://stats.test/datalake/hash/', { status: 200, body: { data: { hash: 'h-1' } } });
    world.server.on('POST', 'https://stats.test/datalake/session/', { status: 200, body: { data: { id: 1 } } });
    world.server.on('POST', 'https://stats.test/datalake/video/event/', { status: 200, body: { data: {} } });
    world.server.on('POST', 'https://stats.test/datalake/video/viewing/', { status: 200, body: { data: {} } });
  });
  afterEach(teardown);

  const config = (explicit: boolean) => ({
    channelKey: 'demo',
    apiUrl: 'https://api.test/api',
    keysUrl: 'https://api.test/keys',
    analyticsUrl: 'https://stats.test',
    analyticsExplicit: explicit,
    consentRequired: false,
  });
  const settings = { language: 'en', currency: 'USD', auth: { remote_auth: false }, 'yare-analytics': 'profile-1' };

  it('sends first_frame and viewing time to the datalake, with no token, and stops with the player', async () => {
    const video = document.createElement('video');
    const monitor = monitorVideo(
      video,
      { streamId: '7', streamType: 'live', title: 'Final' },
      { ...videoReporting({ config: config(true), settings, user: user() }), startedAt: world.clock.now - 420 },
    );
    // Analytics wait for the browser's idle time (real time, not the fake clock).
    await waitUntil(
      () => world.server.to('POST', 'https://stats.test/datalake/video/event/').length === 1,
      'first_frame',
      {
        timeout: 4000,
      },
    );
    const [session] = world.server.to('POST', 'https://stats.test/datalake/session/');
    expect(session!.body).to.include({ profile: 'profile-1', platform: 'web' });
    const [first] = world.server.to('POST', 'https://stats.test/datalake/video/event/');
    expect(first!.body).to.include({
      event: 'first_frame',
      stream_id: '7',
      stream_type: 'live',
      first_frame_ms: 420,
      user_id: 3,
    });
    video.dispatchEvent(new Event('playing'));
    await world.advance(VIEWING_EVERY_MS);
    await waitUntil(() => world.server.to('POST', 'https://stats.test/datalake/video/viewing/').length > 0, 'viewing', {
      timeout: 4000,
    });
    const viewing = world.server.to('POST', 'https://stats.test/datalake/video/viewing/');
    expect(viewing).to.have.length(1);
    expect(viewing[0]!.body).to.include({ viewing_time: VIEWING_EVERY_MS / 1000 });
    for (const r of world.server.requests) {
      expect(r.headers).to.not.have.property('authorization');
      expect(JSON.stringify(r.body ?? '')).to.not.match(/token/i);
    }
    monitor.destroy();
    // The last viewing time goes out once (the player stopped), then nothing more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = world.server.requests.length;
    await world.advance(VIEWING_EVERY_MS * 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(world.server.requests).to.have.length(sent);
  });

  it('mux-embed beacons carry the stream URL without its signed path segment, query secrets or signed poster query', async () => {
    // A signed URL as the reference server makes it ({expiry}.{viewer}.{hmac} as one segment), plus query
    // signatures as other channel APIs send them.
    const SEGMENT = '1735689600.v42.Zk3xQ9mB2pL7vR4tY8wN1cH6sD0aF5gJ3kE9uI2oPq';
    const signed = `http://media.test/media/s/${SEGMENT}/7/master.m3u8?token=qtok-11&Signature=qsig-22&Key-Pair-Id=KPID33&exp=1735689600`;
    const BEACONS = 'http://localhost:9';
    const beacons: string[] = [];
    const realFetch = window.fetch;
    // mux-embed posts its beacons with the page's own fetch (not the injected one), to `http://{beacon domain}`.
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).startsWith(BEACONS)) return realFetch(input, init);
      beacons.push(String(init?.body));
      return Promise.resolve(new Response('{}', { status: 200 }));
    }) as typeof fetch;
    try {
      const video = document.createElement('video');
      // What mux-embed reads: a natively played HLS source (Safari) is the signed URL itself.
      Object.defineProperty(video, 'currentSrc', { configurable: true, get: () => signed });
      Object.defineProperty(video, 'poster', {
        configurable: true,
        get: () => 'http://media.test/poster/7.jpg?Policy=qpol-44',
      });
      const monitor = monitorVideo(
        video,
        { streamId: '7', streamType: 'live', title: 'Final' },
        {
          ...videoReporting({
            config: config(true),
            settings: {
              language: 'en',
              currency: 'USD',
              auth: { remote_auth: false },
              mux: { env_key: 'envkey1', beacon_domain: 'localhost:9' },
            },
            user: user(),
          }),
          startedAt: world.clock.now,
        },
      );
      const muxed = () =>
        (video as unknown as { mux?: { emit(event: string, data: Record<string, unknown>): void } }).mux;
      await waitUntil(() => muxed(), 'mux-embed monitors the video', { timeout: 4000 });
      // A view starts (its beacon is sent at once), and a request event as mux-embed's hls.js monitor sends them.
      video.dispatchEvent(new Event('play'));
      muxed()!.emit('requestcompleted', {
        request_type: 'manifest',
        request_url: signed,
        request_hostname: 'media.test',
      });
      await waitUntil(() => beacons.length > 0, 'the viewstart beacon', { timeout: 4000 });
      // Destroying the monitor sends viewend and flushes the queue.
      const before = beacons.length;
      monitor.destroy();
      await waitUntil(() => beacons.length > before, 'the flushed queue', { timeout: 4000 });
      const sent = beacons.join('\n');
      const events = beacons.flatMap((b) => (JSON.parse(b) as { events: { e: string }[] }).events.map((e) => e.e));
      expect(events).to.include.members(['viewstart', 'requestcompleted', 'viewend']);
      // The stream is still reported (host and path), without the secrets.
      expect(sent).to.contain('http://media.test/media/s/-/7/master.m3u8');
      expect(sent).to.contain('http://media.test/poster/7.jpg');
      for (const secret of [
        SEGMENT,
        'Zk3xQ9mB2pL7vR4tY8wN1cH6sD0aF5gJ3kE9uI2oPq',
        'qtok-11',
        'qsig-22',
        'KPID33',
        'qpol-44',
        '?token',
        'Signature=',
      ]) {
        expect(sent, secret).not.to.contain(secret);
      }
    } finally {
      window.fetch = realFetch;
    }
  });

  it("names a Mux stream's playback id to Mux (video_id), and the stream id for any other stream", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const fake = async () => ({
      monitor: (_video: HTMLMediaElement, options: Record<string, unknown>) =>
        void seen.push(options.data as Record<string, unknown>),
      destroyMonitor: () => undefined,
    });
    const reporting = videoReporting({
      config: config(true),
      settings: { ...settings, mux: { env_key: 'envkey1' } },
      user: user(),
    });
    const monitors = [
      'https://stream.mux.com/qxb01i6T202018GFS02vp9RIe01icTcDCjVzQpmaB00CUisJ4.m3u8?token=eyJhbGciOi.x.y',
      'https://cdn.example.com/live/master.m3u8',
    ].map((url) =>
      monitorVideo(
        document.createElement('video'),
        { streamId: '7', streamType: 'live', title: 'Final', url },
        { ...reporting, startedAt: world.clock.now, loadMux: fake },
      ),
    );
    await waitUntil(() => seen.length === 2, 'both monitors started', { timeout: 4000 });
    expect(seen.map((data) => data.video_id).sort()).to.deep.equal([
      '7',
      'qxb01i6T202018GFS02vp9RIe01icTcDCjVzQpmaB00CUisJ4',
    ]);
    for (const monitor of monitors) monitor.destroy();
  });

  it('sends nothing from a localhost page unless the analytics URL was given', async () => {
    expect(analyticsAllowed(config(false))).to.equal(
      location.hostname !== 'localhost' && location.hostname !== '127.0.0.1',
    );
    expect(analyticsAllowed(config(true))).to.equal(true);
  });
});
