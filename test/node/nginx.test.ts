/**
 * scripts/nginx.mjs, the throw-away nginx of the ingest tests, the bench and dev mode: it is taken as started only
 * once nginx itself listens (never for a listener of someone else's on the port it was given), and its stop leaves
 * nothing listening and no folder behind. As root on Debian it installs nginx with its RTMP module first, as CI needs;
 * without nginx and root it is skipped, saying what to install (the e2e ingest spec needs it all the same).
 * Run: node --import tsx --test test/node/nginx.test.ts
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { INSTALL_HINT, nginxAvailable, startNginx } from '../../scripts/nginx.mjs';

const HOOKS = 'http://127.0.0.1:9';

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** As root on Debian startNginx installs nginx (CI); anyone else without it is told how to get it, and this is skipped. */
const skip =
  !nginxAvailable() && process.getuid?.() !== 0 ? `no nginx with its RTMP module here: ${INSTALL_HINT}` : false;

test(
  'nginx started on a port another program holds fails, saying so; on a free port it listens until stopped',
  { skip },
  async () => {
    const other = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    const taken = (other.address() as AddressInfo).port;
    try {
      await assert.rejects(startNginx({ hookOrigin: HOOKS, port: taken }), (error: Error) =>
        error.message.includes(`nginx: it did not start on 127.0.0.1:${taken}.`),
      );
    } finally {
      other.close();
    }
    const nginx = await startNginx({ hookOrigin: HOOKS });
    const port = Number(new URL(nginx.rtmpUrl).port);
    assert.match(nginx.rtmpUrl, /^rtmp:\/\/127\.0\.0\.1:\d+\/live$/);
    assert.ok(await accepts(port), 'nginx listens');
    assert.ok(existsSync(nginx.hlsDir));
    await nginx.stop();
    assert.ok(!(await accepts(port)), 'nothing listens after the stop');
    assert.ok(!existsSync(dirname(nginx.hlsDir)), 'its folder is gone');
  },
);
