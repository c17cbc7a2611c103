/**
 * The stored copy of each channel's settings (spec section 7: "Settings are also stored under /storage/settings/"),
 * which clients read when `GET settings` fails. It is a file per channel, `{dir}/{channel key}.json`, holding the
 * settings as `GET settings` serves them: written at every start (so a new PUBLIC_URL or fixture reaches it) and
 * whenever the settings change, and served from the file, so it answers even when the API cannot.
 *
 * Safely: a file is named only after a channel key read from the database (never the request's text), written
 * whole (a temporary file renamed over it, so a reader never sees half a file), one write at a time per channel,
 * and served as JSON with `nosniff`; the settings are what the keyless API already gives anyone.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** How the copies are written and read. */
export interface SettingsCopies {
  /** Writes a channel's copy (resolves once the file is in place). */
  write(channelKey: string, settings: unknown): Promise<void>;
  /** A channel's copy as text, or undefined when none has been written yet. */
  read(channelKey: string): Promise<string | undefined>;
}

/** The file name of a channel's copy: its key with anything but letters, digits, `-` and `_` escaped. */
export function copyFileName(channelKey: string): string {
  return `${encodeURIComponent(channelKey).replace(/[^A-Za-z0-9_%-]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}.json`;
}

/** The copies kept in `dir`. */
export function settingsCopies(dir: string): SettingsCopies {
  const queues = new Map<string, Promise<void>>();
  return {
    write(channelKey, settings) {
      const file = join(dir, copyFileName(channelKey));
      const text = `${JSON.stringify(settings)}\n`;
      const previous = queues.get(channelKey) ?? Promise.resolve();
      const next = previous.then(async () => {
        await mkdir(dir, { recursive: true });
        const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
        await writeFile(temporary, text, { mode: 0o644 });
        await rename(temporary, file);
      });
      // A failed write does not stop the next one; its caller hears of it.
      queues.set(
        channelKey,
        next.catch(() => undefined),
      );
      return next;
    },
    async read(channelKey) {
      try {
        return await readFile(join(dir, copyFileName(channelKey)), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}
