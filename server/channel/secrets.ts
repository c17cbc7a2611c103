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
