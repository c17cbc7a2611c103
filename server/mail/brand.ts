/**
 * The channel an email speaks for, read from its settings as served (name, language, logo on the public origin,
 * contact address) and its colours (`GET color-settings/web`'s table).
 */
import type { ChannelDb } from '../storage/db.js';
import type { Brand } from './letters.js';
import { languageOf } from './mail.js';

/** What a channel's settings say about it, as `Channels.settingsOf` serves them. */
type SettingsOf = (channelId: number) => Record<string, unknown>;

const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** A channel's brand, read when an email is queued (settings and colours may change between two emails). */
export function brandsOf(db: ChannelDb, settingsOf: SettingsOf): (channelId: number) => Promise<Brand> {
  return async (channelId) => {
    const settings = settingsOf(channelId);
    const colors = new Map(
      (await db.all('SELECT name, value FROM colors WHERE channel_id = ?', [channelId])).map((row) => [
        String(row.name),
        String(row.value),
      ]),
    );
    const channel =
      textOf(settings.name) ?? textOf((await db.get('SELECT name FROM channels WHERE id = ?', [channelId]))?.name);
    const blocks = settings.static_blocks as Record<string, Record<string, unknown> | undefined> | undefined;
    return {
      name: channel ?? 'Channel',
      language: languageOf(settings.language) ?? 'en',
      logo: textOf(settings.logo),
      colors: {
        header: colors.get('header-background') ?? '',
        headerText: colors.get('header-text-color') ?? '',
        primary: colors.get('primary-color') ?? '',
        background: colors.get('body-background') ?? '',
        text: colors.get('body-text-color') ?? '',
      },
      contact: textOf(blocks?.contacts?.email),
    };
  };
}
