/**
 * The commands that run against the database itself, for a new installation: `channel create`, `operator add` (a
 * channel's first owner), `import FILE` and `export`. The database is the server's (DATABASE_URL, else the embedded
 * one in DATA_DIR, default the repository's `.data`), opened as storage/db.ts opens it: migrated, never seeded; one
 * created here is a production database (its events timed in UTC: db.ts EVENT_CLOCK). A PostgreSQL server may be
 * serving meanwhile (the change reaches its processes by notification); the embedded database is one process's, so
 * DATA_DIR is held (storage/data-dir.ts) and a running server there is named rather than opened beside.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChannelDb } from '../storage/db.js';
import { lockDataDir, StartRefused } from '../storage/data-dir.js';
import { CliError } from './output.js';

/** The repository root (this file is server/cli/direct.ts): the server's default DATA_DIR is `.data` in it. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the database is, from the environment, as the server reads it (docs/server.md, "Settings"). */
export function databaseOf(env: NodeJS.ProcessEnv, cwd: string): { dataDir: string; databaseUrl?: string } {
  const dataDir = env.DATA_DIR ? resolve(cwd, env.DATA_DIR) : join(REPO_ROOT, '.data');
  return env.DATABASE_URL ? { dataDir, databaseUrl: env.DATABASE_URL } : { dataDir };
}

/** Runs `fn` on the server's database, opened (created, migrated) for it alone, then closed. */
export async function withDatabase<T>(
  env: NodeJS.ProcessEnv,
  cwd: string,
  fn: (db: ChannelDb) => Promise<T>,
): Promise<T> {
  const { dataDir, databaseUrl } = databaseOf(env, cwd);
  process.umask(0o077);
  let release = () => {};
  if (!databaseUrl) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      release = lockDataDir(dataDir, false).release;
    } catch (error) {
      if (!(error instanceof StartRefused)) throw error;
      throw new CliError(
        `${error.message} The embedded database is one process's: stop the server first, or make this change ` +
          'through the operator API (--url and --token).',
      );
    }
  }
  let db: ChannelDb | undefined;
  try {
    db = await ChannelDb.open({
      dataDir,
      databaseUrl,
      // Tests: a new DATA_DIR starts as a copy of a ready-made empty database.
      templates: env.DATABASE_TEMPLATES && !databaseUrl ? { dir: env.DATABASE_TEMPLATES, key: 'empty' } : undefined,
    });
    return await fn(db);
  } catch (error) {
    if (error instanceof StartRefused) throw new CliError(error.message);
    throw error;
  } finally {
    await db?.close();
    release();
  }
}
