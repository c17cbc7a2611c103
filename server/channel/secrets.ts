/**
 * A channel's own secrets for outside services, kept in `channel_secrets` (migration OPERATORS). They are written
 * through the operator API or the command line and never read back by them: the API only says which are set. The
 * services read them here; a channel without its own falls back to the server-wide environment variables.
 * Every write notifies `channel_secrets` (payload: the channel id), so each process drops what it made from them.
 */
import type { ChannelDb } from '../storage/db.js';

/** The secrets a channel may hold, by the name stored. */
export const SECRET_NAMES = [
  'stripe_secret_key',
  'stripe_webhook_secret',
  'google_client_secret',
  'facebook_app_secret',
  'mux_signing_key_id',
  'mux_signing_private_key',
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export type ChannelSecrets = Partial<Record<SecretName, string>>;

/** The notification channel every secrets write sends (payload: the channel id). */
export const SECRETS_CHANGED = 'channel_secrets';

/** The channel's secrets (only those set). */
export async function channelSecrets(db: ChannelDb, channelId: number): Promise<ChannelSecrets> {
  const rows = await db.all('SELECT name, value FROM channel_secrets WHERE channel_id = ?', [channelId]);
  const out: ChannelSecrets = {};
  for (const row of rows) out[String(row.name) as SecretName] = String(row.value);
  return out;
}

/** Which of the channel's secrets are set, with when (ms): what the API may show of them. */
export async function secretsSet(db: ChannelDb, channelId: number): Promise<Partial<Record<SecretName, number>>> {
  const rows = await db.all('SELECT name, updated_at FROM channel_secrets WHERE channel_id = ?', [channelId]);
  return Object.fromEntries(rows.map((row) => [String(row.name), Number(row.updated_at)]));
}

/**
 * Sets (a string) or removes (null) some of the channel's secrets, in the caller's transaction if there is one, and
 * tells every process. Returns the names changed (what an audit entry may record; never the values).
 */
export async function setChannelSecrets(
  db: ChannelDb,
  channelId: number,
  values: Partial<Record<SecretName, string | null>>,
  nowMs: number,
): Promise<SecretName[]> {
  const changed: SecretName[] = [];
  for (const name of SECRET_NAMES) {
    const value = values[name];
    if (value === undefined) continue;
    if (value === null)
      await db.run('DELETE FROM channel_secrets WHERE channel_id = ? AND name = ?', [channelId, name]);
    else
      await db.run(
        `INSERT INTO channel_secrets (channel_id, name, value, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (channel_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [channelId, name, value, nowMs],
      );
    changed.push(name);
  }
  if (changed.length) await db.notify(SECRETS_CHANGED, String(channelId));
  return changed;
}

/** Each channel's secrets as this process knows them, kept current by SECRETS_CHANGED (watchChannelSecrets). */
export interface SecretsWatch {
  /** The secrets of the channel with this id (only those set; none for a channel without any). */
  ofId(channelId: number): ChannelSecrets;
  /** The secrets of the channel with this key. */
  ofKey(channelKey: string): ChannelSecrets;
  /** Whether some channel has this secret of its own. */
  some(name: SecretName): boolean;
  /** Calls `fn` once the secrets of a channel (undefined: of any channel) were read again after a change. */
  onChange(fn: (channelId: number | undefined) => void): void;
}

/**
 * Reads every channel's secrets now, and again for a channel each time SECRETS_CHANGED names it (every process hears
 * every write, its own included), or for all of them when a notification may have been missed. The reads are made
 * one after the other, so an older read never overwrites a newer one.
 */
export async function watchChannelSecrets(
  db: ChannelDb,
  failed: (error: unknown) => void = () => undefined,
): Promise<SecretsWatch> {
  const byId = new Map<number, { key: string; secrets: ChannelSecrets }>();
  const idOfKey = new Map<string, number>();
  const listeners: Array<(channelId: number | undefined) => void> = [];

  async function read(channelId?: number): Promise<void> {
    const rows = await db.all(
      `SELECT c.id, c.channel_key, s.name, s.value FROM channels c JOIN channel_secrets s ON s.channel_id = c.id
       ${channelId === undefined ? '' : 'WHERE c.id = ?'}`,
      channelId === undefined ? [] : [channelId],
    );
    const fresh = new Map<number, { key: string; secrets: ChannelSecrets }>();
    for (const row of rows) {
      const id = Number(row.id);
      const entry = fresh.get(id) ?? { key: String(row.channel_key), secrets: {} };
      if ((SECRET_NAMES as readonly string[]).includes(String(row.name)))
        entry.secrets[String(row.name) as SecretName] = String(row.value);
      fresh.set(id, entry);
    }
    if (channelId === undefined) byId.clear();
    else byId.delete(channelId);
    for (const [id, entry] of fresh) byId.set(id, entry);
    idOfKey.clear();
    for (const [id, entry] of byId) idOfKey.set(entry.key, id);
    for (const fn of listeners) fn(channelId);
  }

  let reading: Promise<void> = Promise.resolve();
  const again = (channelId?: number) => {
    reading = reading.then(() => read(channelId)).catch(failed);
  };
  // Listening first: a change made while the first read runs is read again after it.
  await db.listen(
    SECRETS_CHANGED,
    (payload) => {
      const id = Number(payload);
      again(payload !== '' && Number.isInteger(id) ? id : undefined);
    },
    () => again(),
  );
  const first = reading.then(() => read());
  reading = first.catch(failed);
  await first;
  return {
    ofId: (channelId) => byId.get(channelId)?.secrets ?? {},
    ofKey: (channelKey) => {
      const id = idOfKey.get(channelKey);
      return id === undefined ? {} : (byId.get(id)?.secrets ?? {});
    },
    some: (name) => [...byId.values()].some((entry) => entry.secrets[name] !== undefined),
    onChange: (fn) => void listeners.push(fn),
  };
}
