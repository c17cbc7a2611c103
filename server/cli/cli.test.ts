/**
 * The command line (`channel-server COMMAND`) as an operator uses it: every command's --help, its usage errors
 * (naming the option, exit 2), a new installation made on the database directly (channel create, operator add,
 * import), a production server started on the imported demo, a bad channel file refused naming its problems with
 * nothing written, and export then import giving the same channel API answers. The API-backed commands run against
 * a small double of the operator API here (the API's own tests run the real one).
 * Run: node --import tsx --test server/cli/cli.test.ts
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ChannelDb } from '../storage/db.js';
import { operatorByToken } from '../operator/operators.js';
import { exportChannel } from '../fixtures/export.js';
import { clockAnchor } from '../catalog/events.js';
import { importChannel } from '../fixtures/import.js';
import { parseChannelFile } from '../fixtures/channel-file.js';
import { startServer, type RunningServer } from '../app/server.js';
import { captureLog, DATABASE_TEMPLATES, ok, request, startTestServer } from '../testing/harness.js';
import { COMMANDS, runCli } from './cli.js';
import type { Io } from './output.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = join(ROOT, 'server', 'fixtures', 'demo.json');
const tmp = mkdtempSync(join(tmpdir(), 'channel-cli-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the command line in this process with `env`; answers its exit code and what it printed. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}, stdin = '') {
  let out = '';
  let err = '';
  const io: Io = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    env: { DATABASE_TEMPLATES, ...env },
    cwd: ROOT,
    stdin: async () => stdin,
  };
  const code = await runCli(args, io);
  return { code, out, err };
}

/** A fresh DATA_DIR of the test's (the embedded database; these tests do not need a PostgreSQL server). */
let dirs = 0;
const freshDataDir = () => join(tmp, `data-${++dirs}`);

describe('every command', () => {
  test('--help says how to use it, exit 0', async () => {
    const top = await cli(['--help']);
    assert.equal(top.code, 0);
    for (const command of COMMANDS) {
      assert.match(top.out, new RegExp(`\\n  ${command.name} `), `the list names ${command.name}`);
      const help = await cli([...command.name.split(' '), '--help']);
      assert.equal(help.code, 0, help.err);
      assert.match(help.out, new RegExp(`^Usage: channel-server ${command.name}`), help.out);
      if (command.api) assert.match(help.out, /CHANNEL_OPERATOR_TOKEN/, `${command.name} says where the token goes`);
    }
    assert.match((await cli(['secrets', 'set', '--help'])).out, /--from-env[\s\S]*--stdin[\s\S]*history/);
  });

  test('a usage error names the option and why, exit 2; a refusal exits 1', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['events', 'ad'], /unknown command 'events ad': events add/],
      [['channel', 'create', '--name', 'X'], /--key: required/],
      [['channel', 'create', '--key', 'Bad Key', '--name', 'X'], /--key: expected lower-case letters/],
      [['channel', 'create', '--key', 'x', '--name', 'X', '--language', 'de'], /--language: expected one of en, fr/],
      [
        ['operator', 'add', '--channel', 'x', '--email', 'a@b.co', '--role', 'admin'],
        /--role: expected one of owner, editor/,
      ],
      [['events', 'list', '--channel', 'x'], /--url: this command works through the operator API/],
      [['events', 'list', '--channel', 'x', '--url', 'http://127.0.0.1:1'], /--token: the operator API needs a token/],
      [['events', 'add', '--bogus'], /Unknown option '--bogus'/],
      [['import'], /FILE: required/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.err}`);
      assert.match(run.err, message);
    }
    const json = await cli(['channel', 'create', '--name', 'X', '--json']);
    assert.deepEqual(JSON.parse(json.err), { error: '--key: required' });
    const missing = await cli(['import', join(tmp, 'no-such-file.json')]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /FILE: cannot read .*no-such-file\.json \(ENOENT\)/);
  });

  test('the bin runs a command (not the server) and exits with its code', () => {
    const bin = join(ROOT, 'server', 'bin', 'channel-server.mjs');
    const help = spawnSync(process.execPath, [bin, 'events', 'add', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /--tz ZONE/);
    const refused = spawnSync(process.execPath, [bin, 'operator', 'add', '--channel', 'x'], { encoding: 'utf8' });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /^channel-server: --email: required/);
  });
});

describe('a new installation, on the database directly', () => {
  test('channel create and operator add on a fresh DATA_DIR: a production database, a token that works once shown', async () => {
    const env = { DATA_DIR: freshDataDir() };
    const created = await cli(['channel', 'create', '--key', 'my-channel', '--name', 'My Channel', '--json'], env);
    assert.equal(created.code, 0, created.err);
    assert.deepEqual(JSON.parse(created.out), {
      id: 1,
      key: 'my-channel',
      name: 'My Channel',
      language: 'en',
      currency: 'USD',
    });
    const again = await cli(['channel', 'create', '--key', 'my-channel', '--name', 'Again'], env);
    assert.equal(again.code, 1);
    assert.match(again.err, /--key: a channel with the key 'my-channel' exists already/);

    const editorFirst = await cli(
      ['operator', 'add', '--channel', 'my-channel', '--email', 'ed@example.com', '--role', 'editor'],
      env,
    );
    assert.equal(editorFirst.code, 1);
    assert.match(editorFirst.err, /--role: on the database directly only a channel's first owner is made/);
    const added = await cli(
      ['operator', 'add', '--channel', 'my-channel', '--email', 'Owner@Example.com', '--role', 'owner'],
      env,
    );
    assert.equal(added.code, 0, added.err);
    const token = /chop_[\w-]+/.exec(added.out)?.[0];
    ok(token, added.out);
    const twice = await cli(
      ['operator', 'add', '--channel', 'my-channel', '--email', 'owner@example.com', '--role', 'editor'],
      env,
    );
    assert.equal(twice.code, 1, 'a second operator on the database directly');
    assert.match(
      twice.err,
      /--url: my-channel has an owner already: add operators through the operator API with an owner's token \(--url and --token\)/,
    );
    const secondOwner = await cli(
      ['operator', 'add', '--channel', 'my-channel', '--email', 'other@example.com', '--role', 'owner'],
      env,
    );
    assert.equal(secondOwner.code, 1);
    assert.match(secondOwner.err, /has an owner already/);
    const nowhere = await cli(['operator', 'add', '--channel', 'nope', '--email', 'a@b.co', '--role', 'editor'], env);
    assert.equal(nowhere.code, 1);
    assert.match(nowhere.err, /--channel: no channel has the key 'nope'/);

    const db = await ChannelDb.open({ dataDir: env.DATA_DIR });
    try {
      assert.equal(
        (await db.get("SELECT value FROM meta WHERE key = 'event_clock'"))?.value,
        'utc',
        'a production database',
      );
      assert.equal(Number((await db.get('SELECT count(*) AS n FROM events'))?.n), 0, 'no demo seeded');
      const operator = await operatorByToken(db, token);
      assert.equal(operator?.role, 'owner');
      assert.equal(operator?.email, 'Owner@Example.com');
      const stored = await db.all('SELECT token_hash FROM operator_tokens');
      assert.ok(!JSON.stringify(stored).includes(token), 'only its hash is kept');
      const audit = await db.all('SELECT actor, action, resource, after_json FROM operator_audit ORDER BY id');
      assert.deepEqual(
        audit.map((row) => [row.actor, row.action, row.resource]),
        [
          ['command line', 'create', 'channel'],
          ['command line', 'create', 'operator'],
        ],
      );
      assert.ok(!JSON.stringify(audit).includes(token), 'no token in the audit log');
    } finally {
      await db.close();
    }
  });

  test('a production server starts empty and says how to make a channel; after `import demo.json` it serves the demo, events timed from the import', async () => {
    const dataDir = freshDataDir();
    const log = captureLog();
    let empty: RunningServer;
    try {
      empty = await startServer({ port: 0, dataDir, rootDir: ROOT, databaseTemplates: DATABASE_TEMPLATES });
    } finally {
      log.restore();
    }
    try {
      const said = log.lines.filter((line) => line.includes('no channel yet'));
      assert.equal(said.length, 1, log.lines.join('\n'));
      assert.match(said[0]!, /npx channel-server channel create --key KEY --name NAME.*npx channel-server import FILE/);
      const none = await request(`${empty.origin}/api/settings?channel_key=demo`);
      assert.ok([403, 404].includes(none.status), `no demo seeded: ${none.status}`);
    } finally {
      await empty.stop();
    }

    const importFrom = Math.floor(Date.now() / 1000);
    const imported = await cli(['import', DEMO, '--json'], { DATA_DIR: dataDir });
    const importTo = Math.ceil(Date.now() / 1000);
    assert.equal(imported.code, 0, imported.err);
    assert.deepEqual(JSON.parse(imported.out), { id: 1, key: 'demo', events: 49 });
    const refused = await cli(['import', DEMO], { DATA_DIR: dataDir });
    assert.equal(refused.code, 1);
    assert.match(refused.err, /channel_key: a channel with the key 'demo' exists already/);

    const server = await startServer({ port: 0, dataDir, rootDir: ROOT });
    try {
      const settings = await request(`${server.origin}/api/settings?channel_key=demo`);
      assert.equal(settings.status, 200);
      assert.equal(settings.body.data.name, 'Demo Sports Network');
      const key = (
        await request(`${server.origin}/api/get_api_key`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ channel_key: 'demo' }),
        })
      ).body.data.api_key as string;
      const demo = JSON.parse(readFileSync(DEMO, 'utf8')) as { events: Array<{ name: string; start_offset: number }> };
      const events = await request(`${server.origin}/api/events?api_key=${key}&per_page=100`);
      assert.equal(events.status, 200, JSON.stringify(events.body));
      const first = events.body.data.find((e: { name: string }) => e.name === demo.events[0]!.name);
      ok(first, 'the demo events are served');
      // UNIX seconds in the database (event_clock 'utc'): the start is the import's moment plus its offset.
      const offset = demo.events[0]!.start_offset;
      const start = Number(first.event_utc_ts);
      assert.ok(
        start >= importFrom + offset && start <= importTo + offset,
        `${start} in [${importFrom + offset}, ${importTo + offset}]`,
      );
      await server.stop();
      // A restart an hour later: the event has not moved (a seeded database's would have, with its anchor).
      const later = await startServer({ port: 0, dataDir, rootDir: ROOT, now: () => Date.now() + 3600_000 });
      try {
        const again = await request(`${later.origin}/api/events/${first.id}?api_key=${key}`);
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.equal(again.body.data.event_utc_ts, first.event_utc_ts);
      } finally {
        await later.stop();
      }
    } finally {
      await server.stop();
    }
  });

  test('a bad channel file names each problem and imports nothing', async () => {
    const env = { DATA_DIR: freshDataDir() };
    const demo = JSON.parse(readFileSync(DEMO, 'utf8'));
    demo.events[3].type = 'gratis';
    delete demo.events[4].duration;
    demo.events[5].category = 'curling';
    demo.events[6].starts_at = '2026-12-06T01:00:00Z';
    demo.sponsor = 'nobody';
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify(demo));
    const refused = await cli(['import', bad], env);
    assert.equal(refused.code, 1);
    for (const problem of [
      'events[3].type: expected one of free, register, paid, ppv',
      'events[4].duration: expected number (missing)',
      'events[6].starts_at: expected either starts_at (ISO 8601 UTC) or start_offset',
      '(the file): unknown field sponsor',
    ])
      assert.ok(refused.err.includes(problem), `names ${problem}:\n${refused.err}`);
    // References are checked once the shape is right.
    demo.events[3].type = 'free';
    demo.events[4].duration = 3600;
    delete demo.events[6].starts_at;
    delete demo.sponsor;
    writeFileSync(bad, JSON.stringify(demo));
    const unknown = await cli(['import', bad, '--json'], env);
    assert.equal(unknown.code, 1);
    assert.deepEqual(JSON.parse(unknown.err).problems, ["events[5].category: no category 'curling' in this file"]);

    // A file the database refuses halfway (two pages at one alias) leaves nothing behind: one transaction.
    demo.events[5].category = null;
    demo.pages.push({ ...demo.pages[0], url: `${demo.pages[0].url}/` });
    writeFileSync(bad, JSON.stringify(demo));
    const halfway = await cli(['import', bad], env);
    assert.equal(halfway.code, 1);
    assert.match(halfway.err, /nothing imported/);
    const db = await ChannelDb.open({ dataDir: env.DATA_DIR });
    try {
      for (const table of ['channels', 'events', 'participants', 'categories', 'pages', 'users'])
        assert.equal(Number((await db.get(`SELECT count(*) AS n FROM ${table}`))?.n), 0, `no ${table}`);
    } finally {
      await db.close();
    }
  });
});

describe('export then import', () => {
  /** The channel API's answers a viewer's elements read, origin and signatures aside. */
  async function answers(server: RunningServer): Promise<Record<string, unknown>> {
    const key = (
      await request(`${server.origin}/api/get_api_key`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel_key: 'demo' }),
      })
    ).body.data.api_key as string;
    const out: Record<string, unknown> = {};
    for (const path of [
      'settings',
      'color-settings/web',
      'menu',
      'pages',
      'pages/about',
      'faq',
      'slides/web',
      'events?per_page=100',
      'events-categories',
      'events-locations',
      'participants',
      'participant-groups',
      'packages',
      'subscriptions',
      'custom-forms/contact',
      'vod-media-items',
      'vod-media-categories',
      'vod-media-rails',
    ]) {
      const res = await request(
        `${server.origin}/api/${path}${path.includes('?') ? '&' : '?'}api_key=${key}&channel_key=demo`,
      );
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      out[path] = JSON.parse(
        JSON.stringify(res.body)
          .replaceAll(server.origin, 'ORIGIN')
          // Signed media URLs: each database signs with its own secret.
          .replace(/\/media\/s\/[^/"]+\//g, '/media/s/SIGNED/'),
      );
    }
    return out;
  }

  test('an exported channel imported into an empty database gives the same channel API answers', async () => {
    const now = Date.UTC(2030, 5, 15, 18, 0, 0);
    const original = await startTestServer({ port: 0, dataDir: freshDataDir(), now: () => now });
    let file;
    let before;
    try {
      before = await answers(original);
      // The seeded database's clock counts from this server's start: `now` here.
      file = parseChannelFile(
        JSON.parse(
          JSON.stringify(
            await exportChannel(original.db, 'demo', {
              anchor: await clockAnchor(original.db, now / 1000),
              now: now / 1000,
            }),
          ),
        ),
      );
    } finally {
      await original.stop();
    }
    const text = JSON.stringify(file);
    assert.ok(
      !/password|chop_|sk_test|whsec_|(viewer|buyer|subscriber|passholder)@/.test(text),
      'no account, token or secret',
    );
    assert.ok(
      file.events.every((event) => event.starts_at && event.start_offset === undefined),
      'absolute times',
    );
    assert.equal(file.users, undefined);

    const dataDir = freshDataDir();
    const db = await ChannelDb.open({ dataDir, templates: { dir: DATABASE_TEMPLATES, key: 'empty' } });
    try {
      await importChannel(db, file, now / 1000);
    } finally {
      await db.close();
    }
    const copy = await startServer({ port: 0, dataDir, rootDir: ROOT, now: () => now });
    try {
      const after = await answers(copy);
      for (const path of Object.keys(before)) assert.deepEqual(after[path], before[path], path);
    } finally {
      await copy.stop();
    }
  });
});

test('a category tree of any depth, events by starts_at, and records without aliases come back as they went', async () => {
  const file = parseChannelFile({
    channel_key: 'deep',
    name: 'Deep',
    settings: { name: 'Deep', language: 'en', currency: 'USD' },
    colors: {},
    menu: [],
    pages: [],
    faq: [],
    slides: [],
    custom_forms: [],
    categories: [
      {
        alias: 'hockey',
        name: 'Hockey',
        sport: 'hockey',
        children: [{ alias: 'junior', name: 'Junior', children: [{ alias: 'u18', name: 'Under 18' }] }],
      },
    ],
    participant_groups: [],
    participants: [],
    locations: [{ key: 'rink', name: 'The rink', time_zone: 'America/Chicago' }],
    events: [
      {
        name: 'U18 final',
        type: 'paid',
        price: 4.99,
        starts_at: '2026-12-06T01:00:00Z',
        time_zone: 'America/Chicago',
        duration: 7200,
        category: 'u18',
        location: 'rink',
      },
    ],
    packages: [{ key: 'junior-pass', name: 'Junior pass', price: 19.99, categories: ['junior'] }],
  });
  const db = await ChannelDb.open({ dataDir: freshDataDir(), templates: { dir: DATABASE_TEMPLATES, key: 'empty' } });
  try {
    await importChannel(db, file, 1_800_000_000);
    const back = await exportChannel(db, 'deep', { anchor: await clockAnchor(db, 1_900_000_000), now: 1_900_000_000 });
    const u18 = back.categories[0]!.children![0]!.children![0]!;
    assert.deepEqual([u18.alias, u18.sport], ['u18', 'hockey'], 'the third level, its sport inherited');
    assert.equal(back.events[0]!.starts_at, '2026-12-06T01:00:00Z');
    assert.equal(back.events[0]!.category, 'u18');
    assert.equal(back.events[0]!.location, 'location-1', 'a location is named by its id');
    assert.deepEqual(back.packages![0]!.categories, ['junior'], 'the subtree by its root');
    // The file it makes imports again (as another channel).
    await importChannel(db, parseChannelFile({ ...back, channel_key: 'deep-copy' }), 1_900_000_000);
  } finally {
    await db.close();
  }
});

describe('the API-backed commands (against a double of the operator API)', () => {
  let api: Server;
  let url = '';
  const seen: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: unknown }> = [];
  const TOKEN = 'chop_test-token';
  before(async () => {
    api = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
        seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
        const send = (status: number, answer: unknown, etag?: string) => {
          res.writeHead(status, { 'content-type': 'application/json', ...(etag ? { etag } : {}) });
          res.end(JSON.stringify(answer));
        };
        if (req.headers.authorization !== `Bearer ${TOKEN}`)
          return send(401, { error: 'unauthorized', message: 'Unknown or revoked token.' });
        const event = {
          id: 7,
          name: 'Final',
          type: 'ppv',
          starts_at: '2026-12-06T01:00:00Z',
          time_zone: 'America/Chicago',
          status: 'upcoming',
          price: 9.99,
        };
        if (req.method === 'POST' && req.url === '/operator/v1/channels/demo/events') {
          if ((body as { price?: number }).price! > 1000)
            return send(422, {
              error: 'invalid',
              message: 'Invalid event.',
              errors: { price: 'must be at most 1000' },
            });
          return send(201, { data: { ...event, ...body, id: 7 } });
        }
        if (req.method === 'GET' && req.url === '/operator/v1/channels/demo/events/7')
          return send(200, { data: event }, '"v1"');
        if (req.method === 'PATCH' && req.url === '/operator/v1/channels/demo/events/7')
          return req.headers['if-match'] === '"v1"'
            ? send(200, { data: { ...event, ...body } }, '"v2"')
            : send(409, { error: 'conflict', message: 'Changed meanwhile.', etag: '"v2"' });
        if (req.method === 'GET' && req.url?.startsWith('/operator/v1/channels/demo/events'))
          return send(200, { data: [event], meta: { total: 1, offset: 0, limit: 50 } });
        if (req.method === 'PUT' && /^\/operator\/v1\/channels\/demo\/secrets\/(stripe|mux)$/.test(req.url!))
          return send(200, { data: {} });
        return send(404, { error: 'not_found', message: 'No such path.' });
      });
    });
    await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  after(() => api.close());
  const env = () => ({ CHANNEL_OPERATOR_URL: url, CHANNEL_OPERATOR_TOKEN: TOKEN });

  test('events add sends the local time in --tz as UTC and prints the new id', async () => {
    seen.length = 0;
    const add = await cli(
      [
        'events',
        'add',
        '--channel',
        'demo',
        '--name',
        'Final',
        '--starts',
        '2026-12-05T19:00',
        '--tz',
        'America/Chicago',
        '--type',
        'ppv',
        '--price',
        '9.99',
        '--home',
        '3',
        '--away',
        '4',
        '--duration',
        '150',
      ],
      env(),
    );
    assert.equal(add.code, 0, add.err);
    assert.equal(add.out, '7\n');
    assert.deepEqual(seen[0]!.body, {
      name: 'Final',
      type: 'ppv',
      starts_at: '2026-12-06T01:00:00Z',
      time_zone: 'America/Chicago',
      duration_minutes: 150,
      price: 9.99,
      participant_ids: [4, 3],
      home_team_id: 3,
    });
    assert.match(String(seen[0]!.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
    assert.ok(!seen[0]!.path.includes(TOKEN), 'the token is never in a URL');

    const refused = await cli(
      [
        'events',
        'add',
        '--channel',
        'demo',
        '--name',
        'F',
        '--starts',
        '2026-12-05T19:00',
        '--tz',
        'America/Chicago',
        '--type',
        'paid',
        '--price',
        '5000',
      ],
      env(),
    );
    assert.equal(refused.code, 1);
    assert.match(refused.err, /Invalid event\.\n {2}--price: must be at most 1000/);
    const badZone = await cli(
      [
        'events',
        'add',
        '--channel',
        'demo',
        '--name',
        'F',
        '--starts',
        '2026-12-05T19:00',
        '--tz',
        'Central',
        '--type',
        'free',
      ],
      env(),
    );
    assert.equal(badZone.code, 2);
    assert.match(badZone.err, /--tz: 'Central' is not an IANA time zone/);
  });

  test('events update sends If-Match from a GET; events list prints the times in the event’s zone; a bad token is named', async () => {
    seen.length = 0;
    const update = await cli(['events', 'update', '7', '--channel', 'demo', '--starts', '2026-12-05T20:30'], env());
    assert.equal(update.code, 0, update.err);
    const patch = seen.find((r) => r.method === 'PATCH')!;
    assert.equal(patch.headers['if-match'], '"v1"');
    assert.deepEqual(patch.body, { starts_at: '2026-12-06T02:30:00Z' }, "read in the event's own zone");

    const list = await cli(['events', 'list', '--channel', 'demo'], env());
    assert.equal(list.code, 0, list.err);
    assert.match(
      list.out,
      /^ID +STARTS +STATUS +TYPE +PRICE +STREAM +NAME\n7 +2026-12-05 19:00 America\/Chicago +upcoming +ppv +9\.99 +generated +Final$/m,
    );
    const json = await cli(['events', 'list', '--channel', 'demo', '--json'], env());
    assert.equal(JSON.parse(json.out).data[0].id, 7);

    const unknown = await cli(['events', 'list', '--channel', 'demo'], {
      ...env(),
      CHANNEL_OPERATOR_TOKEN: 'chop_other',
    });
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /Unknown or revoked token\. \(the token is unknown or revoked/);
    assert.ok(!unknown.err.includes('chop_other'), 'the token is never printed');
  });

  test('events add and update set the stream: a URL, a Mux playback id (signed), ingest, or back to generated', async () => {
    seen.length = 0;
    const add = (...more: string[]) =>
      cli(
        [
          'events',
          'add',
          '--channel',
          'demo',
          '--name',
          'Final',
          '--starts',
          '2026-12-05T19:00',
          '--tz',
          'America/Chicago',
          '--type',
          'free',
          ...more,
        ],
        env(),
      );
    const url = 'https://cdn.example.com/final/master.m3u8';
    assert.equal((await add('--stream-url', url)).code, 0);
    assert.deepEqual((seen.at(-1)!.body as { stream: unknown }).stream, { type: 'url', url });
    assert.equal((await add('--mux-playback-id', 'PlaybackId0123456789', '--mux-signed')).code, 0);
    assert.deepEqual((seen.at(-1)!.body as { stream: unknown }).stream, {
      type: 'mux',
      playback_id: 'PlaybackId0123456789',
      signed: true,
    });
    assert.equal((await add('--ingest')).code, 0);
    assert.deepEqual((seen.at(-1)!.body as { stream: unknown }).stream, { type: 'ingest' });
    const two = await add('--ingest', '--stream-url', url);
    assert.equal(two.code, 2);
    assert.match(two.err, /give one of them/);
    const alone = await add('--mux-signed');
    assert.equal(alone.code, 2);
    assert.match(alone.err, /--mux-signed: goes with --mux-playback-id/);
    const back = await cli(['events', 'update', '7', '--channel', 'demo', '--generated-stream'], env());
    assert.equal(back.code, 0, back.err);
    assert.deepEqual(seen.at(-1)!.body, { stream: { type: 'generated' } });
  });

  test('secrets set mux reads the private key from its file and never prints it', async () => {
    seen.length = 0;
    const file = join(tmp, 'mux-key.txt');
    writeFileSync(file, 'TUlJRXBBSUJBQUtDQVFFQXRoaXNpc2FrZXk=\n');
    const set = await cli(
      ['secrets', 'set', '--channel', 'demo', 'mux', '--key-id', 'KeyId0123456789', '--private-key', file],
      env(),
    );
    assert.equal(set.code, 0, set.err);
    assert.deepEqual(seen[0]!.body, { key_id: 'KeyId0123456789', private_key: 'TUlJRXBBSUJBQUtDQVFFQXRoaXNpc2FrZXk=' });
    assert.match(set.out, /Set mux_key_id, mux_private_key/);
    assert.ok(!(set.out + set.err).includes('TUlJ'), 'no value printed');
    const missing = await cli(
      ['secrets', 'set', '--channel', 'demo', 'mux', '--key-id', 'KeyId0123456789', '--private-key', join(tmp, 'none')],
      env(),
    );
    assert.equal(missing.code, 2);
    assert.match(missing.err, /--private-key: cannot read .*none \(ENOENT\)/);
  });

  test('secrets set reads values from the environment or stdin and never prints them', async () => {
    seen.length = 0;
    const fromEnv = await cli(['secrets', 'set', '--channel', 'demo', 'stripe', '--from-env'], {
      ...env(),
      STRIPE_SECRET_KEY: 'sk_test_abc123',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    });
    assert.equal(fromEnv.code, 0, fromEnv.err);
    assert.deepEqual(seen[0]!.body, { secret_key: 'sk_test_abc123', webhook_secret: 'whsec_abc123' });
    const fromStdin = await cli(
      ['secrets', 'set', '--channel', 'demo', 'stripe', '--stdin'],
      env(),
      'sk_test_x\nwhsec_y\n',
    );
    assert.equal(fromStdin.code, 0, fromStdin.err);
    assert.deepEqual(seen[1]!.body, { secret_key: 'sk_test_x', webhook_secret: 'whsec_y' });
    for (const run of [fromEnv, fromStdin]) assert.ok(!/sk_test|whsec_/.test(run.out + run.err), 'no value printed');
    const wrong = await cli(['secrets', 'set', '--channel', 'demo', 'google', '--secret-key', 'x'], env());
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /--secret-key: not one of google's secrets/);
    const short = await cli(['secrets', 'set', '--channel', 'demo', 'stripe', '--stdin'], env(), 'sk_test_x\n');
    assert.equal(short.code, 2);
    assert.match(short.err, /--stdin: expected 2 line\(s\)/);
  });
});
