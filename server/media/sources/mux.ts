/**
 * Mux as a stream source (docs/streams.md "## Mux"): an event or library item names a Mux playback id; the player
 * plays `https://stream.mux.com/{id}.m3u8`. For a playback id with a signed playback policy, the server mints a
 * playback token per viewer with access: an RS256 JWT signed with the channel's Mux signing key (secrets
 * `mux_signing_key_id`, `mux_signing_private_key`), header `kid` the key's id, claims `sub` the playback id, `aud`
 * `v` (video), `t` (thumbnail) or `s` (storyboard), `exp` the same expiry as the server's own signed URLs (rounded
 * up to the minute, so one token serves every viewer of that minute: a 5,000-event page costs a few signatures).
 * Signed with node:crypto (synchronous: tokens are written into pages as they are sent).
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { BoundedMap } from '../../http/limits.js';

/** A Mux playback id: letters and digits (Mux makes them 20 to 64 characters long). */
export const MUX_PLAYBACK_ID = /^[A-Za-z0-9]{10,80}$/;
/** A Mux signing key's id (letters and digits). */
export const MUX_KEY_ID = /^[A-Za-z0-9]{10,80}$/;

/** What a token is for: `v` the video, `t` a thumbnail picture, `s` the storyboard (Mux's audiences). */
export type MuxAudience = 'v' | 't' | 's';

/** A channel's Mux signing key as stored. */
export interface MuxSigningKey {
  keyId: string;
  /** PEM text. */
  privateKey: string;
}

/**
 * The private key as Mux hands it (the base64 of a PEM) or as a PEM, as PEM text; throws an Error saying what is
 * wrong when it is not an RSA private key.
 */
export function muxPrivateKeyPem(text: string): string {
  const trimmed = text.trim();
  let pem = trimmed;
  if (!trimmed.startsWith('-----BEGIN')) {
    if (!/^[A-Za-z0-9+/=\s]+$/.test(trimmed)) throw new Error('must be a PEM private key, or the base64 of one');
    pem = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64').toString('utf8').trim();
    if (!pem.startsWith('-----BEGIN')) throw new Error('must be a PEM private key, or the base64 of one');
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error('is not a readable private key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error('must be an RSA private key (as Mux makes them)');
  return `${pem}\n`;
}

/** The playlist of a playback id. */
export const muxStreamUrl = (playbackId: string) => `https://stream.mux.com/${playbackId}.m3u8`;
/** The storyboard (thumbnails track) of a playback id. */
export const muxStoryboardUrl = (playbackId: string) => `https://image.mux.com/${playbackId}/storyboard.vtt`;
/** A still of a playback id (the poster of an item without its own image). */
export const muxThumbnailUrl = (playbackId: string) => `https://image.mux.com/${playbackId}/thumbnail.jpg`;

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Mints Mux playback tokens; see the module's comment. */
export class MuxTokens {
  /** Tokens by channel, key id, playback id, audience and expiry. Bounded. */
  private readonly tokens = new BoundedMap<string, string>(20_000);
  /** Parsed keys by their PEM text. */
  private readonly keys = new BoundedMap<string, KeyObject>(100);

  /**
   * `keyOf` answers a channel's signing key (undefined when it has none); tokens expire `ttlSeconds` after `nowMs()`,
   * rounded up to the minute.
   */
  constructor(
    private readonly keyOf: (channelId: number) => MuxSigningKey | undefined,
    private readonly ttlSeconds: number,
    private readonly nowMs: () => number,
  ) {}

  /** Whether the channel can sign (has both halves of a signing key). */
  canSign(channelId: number): boolean {
    return this.keyOf(channelId) !== undefined;
  }

  /** A token for one playback id and audience, or undefined when the channel has no signing key. */
  token(channelId: number, playbackId: string, aud: MuxAudience): string | undefined {
    const signing = this.keyOf(channelId);
    if (!signing) return undefined;
    const exp = Math.ceil((Math.floor(this.nowMs() / 1000) + this.ttlSeconds) / 60) * 60;
    const cacheKey = `${channelId}.${signing.keyId}.${playbackId}.${aud}.${exp}`;
    let token = this.tokens.get(cacheKey);
    if (token) return token;
    let key = this.keys.get(signing.privateKey);
    if (!key) this.keys.set(signing.privateKey, (key = createPrivateKey(signing.privateKey)));
    const body = `${base64url({ alg: 'RS256', typ: 'JWT', kid: signing.keyId })}.${base64url({ sub: playbackId, aud, exp })}`;
    token = `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`;
    this.tokens.set(cacheKey, token);
    return token;
  }
}
