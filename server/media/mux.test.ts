/**
 * Mux playback tokens (sources/mux.ts): a signing key read as Mux hands it (the base64 of a PEM) or as a PEM, other keys
 * refused with a reason; tokens that verify with the key's public half, one per playback id, audience and minute
 * (a page of thousands of events signs a few), none for a channel without a key.
 * Run: node --import tsx --test server/media/mux.test.ts
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { muxPrivateKeyPem, MuxTokens } from './sources/mux.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

test('a signing key is taken as the base64 of a PEM or as a PEM; anything else is refused saying why', () => {
  assert.equal(muxPrivateKeyPem(Buffer.from(PEM).toString('base64')), `${PEM.trim()}\n`);
  assert.equal(muxPrivateKeyPem(`\n${PEM}\n`), `${PEM.trim()}\n`);
  assert.throws(() => muxPrivateKeyPem('not a key!'), /PEM private key, or the base64 of one/);
  assert.throws(() => muxPrivateKeyPem(Buffer.from('hello').toString('base64')), /PEM private key/);
  assert.throws(() => muxPrivateKeyPem('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----'), /readable/);
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
  assert.throws(() => muxPrivateKeyPem(ec.toString()), /RSA/);
  const pub = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  assert.throws(() => muxPrivateKeyPem(pub), /readable private key/);
});

test('tokens verify, name the playback id and audience, expire with the signed URLs, and are made once a minute', async () => {
  let now = Date.UTC(2030, 0, 1, 12, 0, 10);
  const tokens = new MuxTokens(
    (channelId) => (channelId === 1 ? { keyId: 'Key0123456789', privateKey: PEM } : undefined),
    7200,
    () => now,
  );
  assert.equal(tokens.canSign(2), false);
  assert.equal(tokens.token(2, 'Playback0123456789', 'v'), undefined);
  const video = tokens.token(1, 'Playback0123456789', 'v')!;
  assert.equal(decodeProtectedHeader(video).kid, 'Key0123456789');
  const key = await importSPKI(publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'RS256');
  const { payload } = await jwtVerify(video, key, { audience: 'v', currentDate: new Date(now) });
  assert.equal(payload.sub, 'Playback0123456789');
  assert.equal(payload.exp, Date.UTC(2030, 0, 1, 14, 1, 0) / 1000, 'two hours on, rounded up to the minute');
  await assert.rejects(jwtVerify(video, key, { audience: 't', currentDate: new Date(now) }), /aud/);
  now += 20_000;
  assert.equal(tokens.token(1, 'Playback0123456789', 'v'), video, 'the same minute: the same token');
  assert.notEqual(tokens.token(1, 'Playback0123456789', 's'), video);
  now += 60_000;
  assert.notEqual(tokens.token(1, 'Playback0123456789', 'v'), video, 'a minute later: a new one');
});
