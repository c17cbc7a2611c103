/**
 * `channel-server COMMAND …`: the command line of a channel's operator (docs/operating.md). Each command is a row of
 * COMMANDS: its options (node:util parseArgs), its `--help` and what it does. The direct ones (direct.ts) work on
 * the database, for a new installation; the others go through the operator API (api.ts), each a thin wrapper over
 * its one request function. `runCli` answers the exit code (output.ts says which).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CHANNEL_KEY, parseChannelFile, ChannelFileError, type ChannelFile } from '../fixtures/channel-file.js';
import { exportChannel, NoSuchChannel, toolClock } from '../fixtures/export.js';
import { audit, ChannelExists, createChannel, importChannel } from '../fixtures/import.js';
import { addOperator, OPERATOR_ROLES, OperatorExists, type OperatorRole } from '../operator/operators.js';
import { connectionOf, request } from './api.js';
import { CONNECTION_HELP, need, str, type Command, type Options, type Values } from './args.js';
import { API_COMMANDS } from './catalogue-commands.js';
import { withDatabase } from './direct.js';
import { answer, CliError, UsageError, type Io } from './output.js';

const DIRECT_HELP = `
The database: DATABASE_URL (a PostgreSQL server, which may be serving meanwhile), else the embedded one in DATA_DIR
(default .data in the repository; the server must be stopped, it holds it). A database created here is a production
one, empty; the demo is never seeded.`;

const DIRECT: Command[] = [
  {
    name: 'channel create',
    summary: 'create a channel (on the database, or through the API with --url)',
    help: `Usage: channel-server channel create --key KEY --name NAME [--language en|fr] [--currency USD]

Creates an empty channel: its settings hold its name, language and currency. Then give it an owner
(channel-server operator add --role owner) and its catalogue (import, or the commands below).

  --key KEY          the channel's key (lower-case letters, digits, dashes): the elements' channel-key
  --name NAME        its name, as viewers see it
  --language en|fr   the language of its texts and emails (default en)
  --currency CODE    ISO 4217 (default USD)
${DIRECT_HELP}
With --url and --token it goes through the operator API instead (an owner's token; the answer holds a token for
the new channel, shown once).`,
    options: {
      key: { type: 'string' },
      name: { type: 'string' },
      language: { type: 'string' },
      currency: { type: 'string' },
    },
    api: true,
    async run({ values, io, json }) {
      const key = need(values, 'key');
      const name = need(values, 'name');
      const language = str(values, 'language') ?? 'en';
      if (language !== 'en' && language !== 'fr')
        throw new UsageError(`--language: expected one of en, fr, not '${language}'`);
      const currency = str(values, 'currency') ?? 'USD';
      if (!/^[A-Z]{3}$/.test(currency))
        throw new UsageError(`--currency: expected an ISO 4217 code in capitals (USD), not '${currency}'`);
      if (!CHANNEL_KEY.test(key) || key.length > 40)
        throw new UsageError(
          `--key: expected lower-case letters and digits in words joined by dashes (my-channel), at most 40, not '${key}'`,
        );
      const connection = connectionOf(values as { url?: string; token?: string }, io.env);
      if (connection) {
        const created = await request<Record<string, unknown>>(connection, 'POST', '/channels', {
          body: { key, name, language, currency },
          fields: { key: '--key', name: '--name', language: '--language', currency: '--currency' },
        });
        const owner = created.data.owner as { token?: string } | undefined;
        answer(
          io,
          json,
          created.data,
          `Channel ${key} created (id ${String(created.data.id)}).` +
            (owner?.token ? `\nIts owner's token, shown this once: ${owner.token}` : ''),
        );
        return;
      }
      const id = await withDatabase(io.env, io.cwd, (db) =>
        createChannel(db, { key, name, language, currency }, nowSeconds()).catch(refuseExisting),
      );
      answer(io, json, { id, key, name, language, currency }, `Channel ${key} created (id ${id}).`);
    },
  },
  {
    name: 'operator add',
    summary: 'add an operator to a channel and print its token (once)',
    help: `Usage: channel-server operator add --channel KEY --email EMAIL --role owner|editor

Adds an operator to the channel and prints a token for it, this once (only its hash is kept). An owner may do
everything, secrets and operators included; an editor, the catalogue.

  --channel KEY           the channel
  --email EMAIL           who it is (the audit log names it)
  --role owner|editor
${DIRECT_HELP}
On the database directly it makes only the channel's first owner (refused once the channel has one). Every other
operator is added with --url and --token (an owner's), through the operator API.`,
    options: { channel: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    api: true,
    async run({ values, io, json }) {
      const channel = need(values, 'channel');
      const email = need(values, 'email');
      const role = need(values, 'role');
      if (!(OPERATOR_ROLES as readonly string[]).includes(role))
        throw new UsageError(`--role: expected one of ${OPERATOR_ROLES.join(', ')}, not '${role}'`);
      if (!/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email))
        throw new UsageError(`--email: expected an email address, not '${email}'`);
      const connection = connectionOf(values as { url?: string; token?: string }, io.env);
      let issued: { operator_id: number; token_id: number; token: string };
      if (connection) {
        issued = (
          await request<typeof issued>(connection, 'POST', `/channels/${encodeURIComponent(channel)}/operators`, {
            body: { email, role },
            fields: { email: '--email', role: '--role' },
          })
        ).data;
      } else {
        issued = await withDatabase(io.env, io.cwd, (db) =>
          db.transaction(async () => {
            const row = await db.get('SELECT id FROM channels WHERE channel_key = ?', [channel]);
            if (!row) throw new CliError(`--channel: no channel has the key '${channel}'`);
            const channelId = Number(row.id);
            // The command line makes a channel's first owner only; every other operator is an owner's decision.
            const owner = await db.get(
              "SELECT 1 AS found FROM operators WHERE channel_id = ? AND role = 'owner' AND removed_at IS NULL",
              [channelId],
            );
            if (owner)
              throw new CliError(
                `--url: ${channel} has an owner already: add operators through the operator API with an owner's token (--url and --token)`,
              );
            if (role !== 'owner')
              throw new CliError(
                `--role: on the database directly only a channel's first owner is made; add an ${role} through the operator API (--url and --token)`,
              );
            const now = nowSeconds();
            const added = await addOperator(db, channelId, email, role as OperatorRole, now * 1000).catch(
              (error: unknown) => {
                if (error instanceof OperatorExists) throw new CliError(`--email: ${error.message}`);
                throw error;
              },
            );
            await audit(db, channelId, 'create', 'operator', { email, role }, now, added.id);
            return { operator_id: added.id, token_id: added.tokenId, token: added.token };
          }),
        );
      }
      answer(
        io,
        json,
        { ...issued, email, role, channel },
        `Operator ${email} (${role}) added to ${channel}. Its token, shown this once (keep it secret):\n${issued.token}`,
      );
    },
  },
  {
    name: 'import',
    summary: 'load a channel file (a whole channel) into the database',
    positionals: ['FILE'],
    help: `Usage: channel-server import FILE

Loads a channel file (one JSON file holding a whole channel: docs/operating.md; server/fixtures/demo.json is one)
as a new channel, in one transaction: a bad file is refused naming each problem, and nothing is written. A channel
whose key exists already is refused. Events given by start_offset are placed relative to now.
${DIRECT_HELP}`,
    options: {},
    async run({ positionals, io, json }) {
      const path = resolve(io.cwd, positionals[0]!);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        throw new CliError(`FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new CliError(`${path} is not JSON: ${(error as Error).message}`);
      }
      let file;
      try {
        file = parseChannelFile(parsed, path);
      } catch (error) {
        if (error instanceof ChannelFileError) throw new CliError(error.message, { problems: error.problems });
        throw error;
      }
      const id = await withDatabase(io.env, io.cwd, (db) =>
        importChannel(db, file, nowSeconds()).catch((error: unknown) => {
          if (error instanceof ChannelExists) throw new CliError(`${path}: channel_key: ${error.message}`);
          // One transaction: whatever the database refused, nothing of the file stays.
          throw new CliError(`${path}: nothing imported: ${(error as Error).message}`);
        }),
      );
      answer(
        io,
        json,
        { id, key: file.channel_key, events: file.events.length },
        `Channel ${file.channel_key} imported (id ${id}): ${file.events.length} events, ${file.participants.length} participants, ${file.pages.length} pages.`,
      );
    },
  },
  {
    name: 'export',
    summary: 'write a channel as a channel file',
    help: `Usage: channel-server export --channel KEY [--out FILE]

Writes the channel as a channel file (to FILE, else to standard output): every event with its start in UTC
(starts_at), cancelled ones left out. Never a secret, an operator or token, nor a viewer's account or order.
${DIRECT_HELP}
With --url and --token it asks the operator API instead (GET /channels/{key}/export).`,
    options: { channel: { type: 'string' }, out: { type: 'string' } },
    api: true,
    async run({ values, io }) {
      const channel = need(values, 'channel');
      const connection = connectionOf(values as { url?: string; token?: string }, io.env);
      const file = connection
        ? (await request<ChannelFile>(connection, 'GET', `/channels/${encodeURIComponent(channel)}/export`)).data
        : await withDatabase(io.env, io.cwd, async (db) =>
            exportChannel(db, channel, await toolClock(db, nowSeconds())).catch((error: unknown) => {
              if (error instanceof NoSuchChannel) throw new CliError(`--channel: ${error.message}`);
              throw error;
            }),
          );
      const text = `${JSON.stringify(file, null, 2)}\n`;
      const out = str(values, 'out');
      if (out) {
        writeFileSync(resolve(io.cwd, out), text, { mode: 0o600 });
        io.err(`Channel ${channel} written to ${out}: ${file.events.length} events.\n`);
      } else io.out(text);
    },
  },
];

/** Every command, in the order `--help` lists them. */
export const COMMANDS: Command[] = [...DIRECT, ...API_COMMANDS];

const nowSeconds = () => Math.floor(Date.now() / 1000);

function refuseExisting(error: unknown): never {
  if (error instanceof ChannelExists) throw new CliError(`--key: ${error.message}`);
  throw error;
}

const COMMON: Options = { help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } };
const CONNECTION: Options = { url: { type: 'string' }, token: { type: 'string' } };

/** The top `--help`. */
export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: channel-server [--dev]          start the server (docs/server.md)
       channel-server COMMAND [options]  run a command (each has --help; docs/operating.md)

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Every command takes --json (a machine-readable answer) and --help. Exit codes: 0 done, 1 refused or failed,
2 a usage error.
`;
}

/** The command `argv` names (its words first), and the rest. */
function commandOf(argv: string[]): { command: Command; rest: string[] } | undefined {
  for (const command of [...COMMANDS].sort((a, b) => b.name.length - a.name.length)) {
    const words = command.name.split(' ');
    if (words.every((word, i) => argv[i] === word)) return { command, rest: argv.slice(words.length) };
  }
  return undefined;
}

/** Runs the command line `argv` (without node and the script); answers the exit code. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  try {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      io.out(usage());
      return 0;
    }
    const found = commandOf(argv);
    if (!found) {
      const start = argv
        .filter((a) => !a.startsWith('-'))
        .slice(0, 2)
        .join(' ');
      const near = COMMANDS.filter((c) => c.name.startsWith(argv[0] ?? '')).map((c) => c.name);
      throw new UsageError(
        `unknown command '${start}'` + (near.length ? `: ${near.join(', ')}?` : ': `channel-server --help` lists them'),
      );
    }
    const { command, rest } = found;
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: { ...COMMON, ...(command.api ? CONNECTION : {}), ...command.options },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new UsageError(`${(error as Error).message} (channel-server ${command.name} --help)`);
    }
    const values = parsed.values as Values;
    if (values.help) {
      io.out(
        `${command.help}\n${command.api && !command.help.includes('CHANNEL_OPERATOR_TOKEN') ? CONNECTION_HELP.slice(1) + '\n' : ''}`,
      );
      return 0;
    }
    const expected = command.positionals ?? [];
    if (parsed.positionals.length !== expected.length)
      throw new UsageError(
        expected.length > parsed.positionals.length
          ? `${expected[parsed.positionals.length]}: required (channel-server ${command.name} --help)`
          : `unexpected argument '${parsed.positionals[expected.length]}' (channel-server ${command.name} --help)`,
      );
    await command.run({ values, positionals: parsed.positionals, io, json });
    return 0;
  } catch (error) {
    if (!(error instanceof CliError)) {
      io.err(`channel-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      return 1;
    }
    if (json) io.err(`${JSON.stringify({ error: error.message, ...error.details })}\n`);
    else io.err(`channel-server: ${error.message}\n`);
    return error.exitCode;
  }
}
