/* eslint-disable max-lines -- the API-backed commands, one table row each, with their help texts */
/**
 * The commands that go through the operator API (api.ts): events, secrets, and the catalogue's categories,
 * participants, locations, packages and pages. Each builds a request body from its options, names an option when
 * the API refuses its field, and prints the new record's id (or the record, with --json).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { needConnection, request, type Connection } from './api.js';
import { CONNECTION_HELP, idOf, need, numberOf, str, type Command, type Run, type Values } from './args.js';
import { answer, CliError, table, UsageError } from './output.js';
import { isTimeZone, startsAtUtc } from './time.js';

type Record_ = Record<string, unknown> & { id: number };

const connectionOf = (run: Run): Connection =>
  needConnection(run.values as { url?: string; token?: string }, run.io.env);

/** `/channels/{key}/{path}` of the command's --channel. */
const channelPath = (values: Values, path: string) =>
  `/channels/${encodeURIComponent(need(values, 'channel'))}/${path}`;

/** Creates a record of `resource` and prints its id (the record with --json). */
async function create(run: Run, resource: string, body: Record<string, unknown>, fields: Record<string, string>) {
  const created = await request<Record_>(connectionOf(run), 'POST', channelPath(run.values, resource), {
    body: withoutUndefined(body),
    fields,
  });
  answer(run.io, run.json, created.data, String(created.data.id));
}

/** Lists `resource` (one page: --offset, --limit) as columns, or the API's answer with --json. */
async function list(run: Run, resource: string, columns: Array<[title: string, cell: (row: Record_) => unknown]>) {
  const query = new URLSearchParams();
  const offset = numberOf(run.values, 'offset', true);
  const limit = numberOf(run.values, 'limit', true);
  if (offset !== undefined) query.set('offset', String(offset));
  if (limit !== undefined) query.set('limit', String(limit));
  const path = channelPath(run.values, resource) + (query.size ? `?${query}` : '');
  const found = await request<Record_[]>(connectionOf(run), 'GET', path);
  if (run.json) {
    answer(run.io, true, { data: found.data, meta: found.meta }, '');
    return;
  }
  const rows = found.data.map((row) => columns.map(([, cell]) => cell(row) as string | number | null));
  const meta = found.meta;
  const more =
    meta && meta.offset + found.data.length < meta.total
      ? `\n(${found.data.length} of ${meta.total}: --offset ${meta.offset + found.data.length} for more)`
      : '';
  answer(run.io, false, null, found.data.length ? table([columns.map(([title]) => title), ...rows]) + more : '(none)');
}

const withoutUndefined = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));

const LIST_OPTIONS = {
  channel: { type: 'string' },
  offset: { type: 'string' },
  limit: { type: 'string' },
} as const;

// ---------------------------------------------------------------- events

const EVENT_TYPES = ['free', 'register', 'paid', 'ppv'] as const;

const EVENT_OPTIONS = {
  channel: { type: 'string' },
  name: { type: 'string' },
  starts: { type: 'string' },
  tz: { type: 'string' },
  type: { type: 'string' },
  price: { type: 'string' },
  category: { type: 'string' },
  home: { type: 'string' },
  away: { type: 'string' },
  location: { type: 'string' },
  duration: { type: 'string' },
  image: { type: 'string' },
  description: { type: 'string' },
  'stream-url': { type: 'string' },
  'mux-playback-id': { type: 'string' },
  'mux-signed': { type: 'boolean' },
  ingest: { type: 'boolean' },
  'generated-stream': { type: 'boolean' },
} as const;

/** The API's event fields to the options that set them. */
const EVENT_FIELDS = {
  name: '--name',
  starts_at: '--starts',
  time_zone: '--tz',
  type: '--type',
  price: '--price',
  category_id: '--category',
  home_team_id: '--home',
  participant_ids: '--away/--home',
  location_id: '--location',
  duration_minutes: '--duration',
  image: '--image',
  description: '--description',
  stream: '--stream-url/--mux-playback-id/--ingest',
  'stream.url': '--stream-url',
  'stream.playback_id': '--mux-playback-id',
};

const EVENT_OPTIONS_HELP = `  --name NAME            as the schedule shows it
  --starts TIME          its start, in the --tz zone's local time: 2026-12-05T19:00 (or an instant with Z or an offset)
  --tz ZONE              an IANA time zone (America/Chicago): the start is read in it, and times are shown in it
  --type TYPE            free | register (signed-in viewers) | paid | ppv
  --price AMOUNT         paid and ppv: 9.99 (a single-event package at that price is made or reused)
  --category ID          its category (channel-server categories list)
  --away ID --home ID    the two teams (participants); --home alone names the home team
  --location ID          its venue
  --duration MINUTES     how long it stays live (default 180)
  --image URL            its picture
  --description TEXT
Its stream (docs/streams.md; one of these, else the server's generated test media):
  --stream-url URL       an HLS URL of the channel's packager or CDN (https), handed to viewers with access
  --mux-playback-id ID   a Mux playback id; --mux-signed when its playback policy is signed (the channel's Mux
                         signing key then makes a token per viewer: channel-server secrets set … mux)
  --ingest               the channel's encoder pushes it over RTMP (channel-server events ingest ID shows where)
  --generated-stream     back to the server's generated test media`;

/** The event fields the options give (only those given). */
function eventBody(values: Values, current?: Record_): Record<string, unknown> {
  const type = str(values, 'type');
  if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type))
    throw new UsageError(`--type: expected one of ${EVENT_TYPES.join(', ')}, not '${type}'`);
  const zone = str(values, 'tz') ?? (typeof current?.time_zone === 'string' ? current.time_zone : undefined);
  const starts = str(values, 'starts');
  if (str(values, 'tz') !== undefined && !isTimeZone(zone!))
    throw new UsageError(`--tz: '${zone}' is not an IANA time zone (such as America/Chicago)`);
  if (starts !== undefined && zone === undefined) throw new UsageError('--tz: required with --starts');
  const home = idOf(values, 'home');
  const away = idOf(values, 'away');
  if (away !== undefined && home === undefined) throw new UsageError('--home: required with --away');
  return withoutUndefined({
    stream: streamOf(values),
    name: str(values, 'name'),
    type,
    starts_at: starts === undefined ? undefined : startsAtUtc(starts, zone!),
    time_zone: str(values, 'tz'),
    duration_minutes: numberOf(values, 'duration', true),
    price: numberOf(values, 'price'),
    category_id: idOf(values, 'category'),
    location_id: idOf(values, 'location'),
    participant_ids: away !== undefined ? [away, home] : undefined,
    home_team_id: home,
    image: str(values, 'image'),
    description: str(values, 'description'),
  });
}

/** The `stream` the stream options give, or undefined without any. */
function streamOf(values: Values): Record<string, unknown> | undefined {
  const url = str(values, 'stream-url');
  const mux = str(values, 'mux-playback-id');
  const given = [url !== undefined, mux !== undefined, values.ingest === true, values['generated-stream'] === true];
  if (given.filter(Boolean).length > 1)
    throw new UsageError('--stream-url, --mux-playback-id, --ingest, --generated-stream: give one of them');
  if (values['mux-signed'] && mux === undefined) throw new UsageError('--mux-signed: goes with --mux-playback-id');
  if (url !== undefined) return { type: 'url', url };
  if (mux !== undefined) return { type: 'mux', playback_id: mux, signed: values['mux-signed'] === true };
  if (values.ingest) return { type: 'ingest' };
  if (values['generated-stream']) return { type: 'generated' };
  return undefined;
}

/** An event's stream as `events list` shows it: generated, url, mux (signed), ingest. */
function streamCell(row: Record_): string {
  const stream = row.stream as { type?: string; signed?: boolean } | undefined;
  return stream?.type === 'mux' && stream.signed ? 'mux (signed)' : String(stream?.type ?? 'generated');
}

/** `2026-12-05 19:00` in the event's zone (the UTC instant when it has none). */
function localTime(row: Record_): string {
  const at = new Date(String(row.starts_at));
  if (Number.isNaN(at.getTime())) return String(row.starts_at);
  const zone = typeof row.time_zone === 'string' && isTimeZone(row.time_zone) ? row.time_zone : 'UTC';
  const text = new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(at);
  return `${text} ${zone}`;
}

/** GET the event (for its ETag and its time zone). */
async function currentEvent(run: Run, id: number) {
  return request<Record_>(connectionOf(run), 'GET', channelPath(run.values, `events/${id}`));
}

const idArgument = (run: Run): number => {
  const value = run.positionals[0]!;
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) throw new UsageError(`ID: expected an event id, not '${value}'`);
  return id;
};

const EVENTS: Command[] = [
  {
    name: 'events add',
    summary: 'add an event (prints its id)',
    api: true,
    help: `Usage: channel-server events add --channel KEY --name NAME --starts 2026-12-05T19:00 --tz America/Chicago
         --type free|register|paid|ppv [--price 9.99] [--category ID] [--home ID --away ID] [--location ID]
         [--duration MINUTES] [--stream-url URL | --mux-playback-id ID [--mux-signed] | --ingest]

Adds an event to the channel's schedule and prints its id. The start is the local time in --tz, sent as UTC.

  --channel KEY
${EVENT_OPTIONS_HELP}
${CONNECTION_HELP}`,
    options: EVENT_OPTIONS,
    async run(run) {
      for (const name of ['name', 'starts', 'tz', 'type']) need(run.values, name);
      const body = eventBody(run.values);
      if ((body.type === 'paid' || body.type === 'ppv') && body.price === undefined)
        throw new UsageError(`--price: required for a ${String(body.type)} event`);
      await create(run, 'events', body, EVENT_FIELDS);
    },
  },
  {
    name: 'events list',
    summary: "list the channel's events",
    api: true,
    help: `Usage: channel-server events list --channel KEY [--offset N] [--limit N]

Lists the events (id, start in the event's time zone, status, type, price, stream source, name).
${CONNECTION_HELP}`,
    options: LIST_OPTIONS,
    async run(run) {
      await list(run, 'events', [
        ['ID', (row) => row.id],
        ['STARTS', localTime],
        ['STATUS', (row) => row.status],
        ['TYPE', (row) => row.type],
        ['PRICE', (row) => row.price],
        ['STREAM', streamCell],
        ['NAME', (row) => row.name],
      ]);
    },
  },
  {
    name: 'events update',
    summary: 'change an event (a reschedule: --starts)',
    api: true,
    positionals: ['ID'],
    help: `Usage: channel-server events update ID --channel KEY [--name NAME] [--starts TIME] [--tz ZONE] [--type TYPE]
         [--price AMOUNT] [--category ID] [--home ID --away ID] [--location ID] [--duration MINUTES]
         [--stream-url URL | --mux-playback-id ID [--mux-signed] | --ingest | --generated-stream]

Changes the given fields of event ID (the others stay). A new --starts is read in --tz, else in the event's own
time zone. The change is sent with the event's ETag (If-Match): if someone changed it meanwhile, it is refused.

  --channel KEY
${EVENT_OPTIONS_HELP}
${CONNECTION_HELP}`,
    options: EVENT_OPTIONS,
    async run(run) {
      const id = idArgument(run);
      const current = await currentEvent(run, id);
      const body = eventBody(run.values, current.data);
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one option');
      const changed = await request<Record_>(connectionOf(run), 'PATCH', channelPath(run.values, `events/${id}`), {
        body,
        ifMatch: current.etag,
        fields: EVENT_FIELDS,
      });
      answer(
        run.io,
        run.json,
        changed.data,
        `Event ${id} updated: ${localTime(changed.data)}, ${String(changed.data.status)}.`,
      );
    },
  },
  {
    name: 'events cancel',
    summary: 'cancel an event (it leaves the schedule)',
    api: true,
    positionals: ['ID'],
    help: `Usage: channel-server events cancel ID --channel KEY

Cancels event ID: it leaves every list of the channel and its page answers 404.
${CONNECTION_HELP}`,
    options: { channel: { type: 'string' } },
    async run(run) {
      const id = idArgument(run);
      const current = await currentEvent(run, id);
      const cancelled = await request<Record_>(
        connectionOf(run),
        'POST',
        channelPath(run.values, `events/${id}/cancel`),
        { ifMatch: current.etag },
      );
      answer(run.io, run.json, cancelled.data, `Event ${id} cancelled.`);
    },
  },
  {
    name: 'events ingest',
    summary: "print an ingest event's RTMP URL and stream key (--rotate: a new key; --reset: clear its pushes)",
    api: true,
    positionals: ['ID'],
    help: `Usage: channel-server events ingest ID --channel KEY [--rotate | --reset]

Prints what event ID's encoder (OBS, vMix, a hardware encoder) is set up with: the RTMP URL (OBS: Server) and the
stream key (OBS: Stream Key). The key is made on first ask; --rotate makes a new one, and the old one is refused at
the encoder's next push. The event's stream must be an ingest one (docs/streams.md). The key is a secret: whoever has
it can put pictures on the channel.

--reset clears what the event's encoder pushed so far (a test before the game made it live, then finished): the
event is upcoming again, its recording is gone, and its next push starts the game. Refused while it is on air.
${CONNECTION_HELP}`,
    options: { channel: { type: 'string' }, rotate: { type: 'boolean' }, reset: { type: 'boolean' } },
    async run(run) {
      const id = idArgument(run);
      const rotate = run.values.rotate === true;
      if (run.values.reset === true) {
        if (rotate) throw new UsageError('--rotate, --reset: give one of them');
        const reset = await request<Record<string, unknown>>(
          connectionOf(run),
          'POST',
          channelPath(run.values, `events/${id}/ingest/reset`),
        );
        answer(run.io, run.json, reset.data, `Event ${id}: its pushes are cleared; it is upcoming until the next one.`);
        return;
      }
      const path = channelPath(run.values, `events/${id}/ingest${rotate ? '/rotate' : ''}`);
      const got = await request<{ rtmp_url: string; stream_key: string }>(
        connectionOf(run),
        rotate ? 'POST' : 'GET',
        path,
      );
      answer(
        run.io,
        run.json,
        got.data,
        `${rotate ? 'A new stream key: the old one no longer works.\n' : ''}RTMP URL:   ${got.data.rtmp_url}\nStream key: ${got.data.stream_key}`,
      );
    },
  },
];

// ---------------------------------------------------------------- secrets

/** Each group's secrets: the API's field, its option, and the server's environment variable of the same value. */
const SECRET_GROUPS: Record<string, Array<[field: string, option: string, variable: string]>> = {
  stripe: [
    ['secret_key', 'secret-key', 'STRIPE_SECRET_KEY'],
    ['webhook_secret', 'webhook-secret', 'STRIPE_WEBHOOK_SECRET'],
  ],
  google: [['client_secret', 'client-secret', 'GOOGLE_CLIENT_SECRET']],
  facebook: [['app_secret', 'app-secret', 'FACEBOOK_APP_SECRET']],
  mux: [
    ['key_id', 'key-id', 'MUX_SIGNING_KEY_ID'],
    ['private_key', 'private-key', 'MUX_SIGNING_PRIVATE_KEY'],
  ],
};
/** Options naming a file that holds the value (a key as Mux hands it: the base64 of a PEM, or a PEM). */
const FILE_OPTIONS = new Set(['private-key']);

/** A file option's file, whole; a usage error naming the option when it cannot be read. */
function readSecretFile(cwd: string, option: string, path: string): string {
  try {
    return readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new UsageError(`--${option}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

const SECRETS: Command[] = [
  {
    name: 'secrets set',
    summary: "set a channel's Stripe, Google, Facebook or Mux secrets (owner)",
    api: true,
    positionals: ['GROUP'],
    help: `Usage: channel-server secrets set --channel KEY stripe --secret-key sk_… --webhook-secret whsec_…
       channel-server secrets set --channel KEY google --client-secret …
       channel-server secrets set --channel KEY facebook --app-secret …
       channel-server secrets set --channel KEY mux --key-id ID --private-key FILE
       … --from-env | --stdin

Stores the channel's own secrets for Stripe (its secret key and its webhook endpoint's signing secret), Google
sign-in (the OAuth client secret), Facebook sign-in (the app secret) or Mux (a signing key: its id, and FILE
holding its private key as Mux hands it, the base64 of a PEM, or the PEM): write-only, never shown again, never
logged. They take the place of the server-wide environment variables for this channel. An owner's token only.

Give values so that they do not sit in the shell's history:
  --from-env   read STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, GOOGLE_CLIENT_SECRET, FACEBOOK_APP_SECRET, or
               MUX_SIGNING_KEY_ID and MUX_SIGNING_PRIVATE_KEY (the base64 of the PEM)
  --stdin      read them from standard input, one a line, in the order above
               (printf '%s\\n%s\\n' "$KEY" "$WHSEC" | channel-server secrets set --channel demo stripe --stdin)
The options (--secret-key, --webhook-secret, --client-secret, --app-secret) work too, but stay in the history.
${CONNECTION_HELP}`,
    options: {
      channel: { type: 'string' },
      'secret-key': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'client-secret': { type: 'string' },
      'app-secret': { type: 'string' },
      'key-id': { type: 'string' },
      'private-key': { type: 'string' },
      'from-env': { type: 'boolean' },
      stdin: { type: 'boolean' },
    },
    async run(run) {
      const group = run.positionals[0]!;
      const secrets = SECRET_GROUPS[group];
      if (!secrets) throw new UsageError(`GROUP: expected one of stripe, google, facebook, mux, not '${group}'`);
      const own = new Set(secrets.map(([, option]) => option));
      for (const option of ['secret-key', 'webhook-secret', 'client-secret', 'app-secret', 'key-id', 'private-key'])
        if (str(run.values, option) !== undefined && !own.has(option))
          throw new UsageError(`--${option}: not one of ${group}'s secrets`);
      const lines = run.values.stdin ? (await run.io.stdin()).split(/\r?\n/).filter((line) => line.trim()) : [];
      const body: Record<string, string> = {};
      secrets.forEach(([field, option, variable], i) => {
        const value = run.values['from-env']
          ? run.io.env[variable]
          : run.values.stdin
            ? lines[i]
            : FILE_OPTIONS.has(option) && str(run.values, option) !== undefined
              ? readSecretFile(run.io.cwd, option, str(run.values, option)!)
              : str(run.values, option);
        if (!value?.trim())
          throw new UsageError(
            run.values['from-env']
              ? `--from-env: ${variable} is not set`
              : run.values.stdin
                ? `--stdin: expected ${secrets.length} line(s) (${secrets.map(([, o]) => o).join(', ')}), got ${lines.length}`
                : `--${option}: required (or --from-env, --stdin)`,
          );
        body[field] = value.trim();
      });
      const fields = Object.fromEntries(
        secrets.map(([field, option, variable]) => [
          field,
          run.values['from-env'] ? variable : run.values.stdin ? `--stdin (${option})` : `--${option}`,
        ]),
      );
      await request(connectionOf(run), 'PUT', channelPath(run.values, `secrets/${group}`), { body, fields });
      const names = secrets.map(([field]) => `${group}_${field}`);
      answer(run.io, run.json, { channel: need(run.values, 'channel'), set: names }, `Set ${names.join(', ')}.`);
    },
  },
  {
    name: 'secrets list',
    summary: 'which secrets a channel has (never their values; owner)',
    api: true,
    help: `Usage: channel-server secrets list --channel KEY

Says which of the channel's secrets are set, and when: never their values.
${CONNECTION_HELP}`,
    options: { channel: { type: 'string' } },
    async run(run) {
      const found = await request<Record<string, { set: boolean; updated_at: string | null }>>(
        connectionOf(run),
        'GET',
        channelPath(run.values, 'secrets').replace(/\/$/, ''),
      );
      answer(
        run.io,
        run.json,
        found.data,
        table([
          ['SECRET', 'SET', 'UPDATED'],
          ...Object.entries(found.data).map(([name, state]) => [name, state.set ? 'yes' : 'no', state.updated_at]),
        ]),
      );
    },
  },
];

// ---------------------------------------------------------------- the catalogue's other records

/** Reads a JSON file an option names (`--blocks FILE`). */
function jsonFile(run: Run, option: string): unknown {
  const path = str(run.values, option);
  if (path === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(resolve(run.io.cwd, path), 'utf8')) as unknown;
  } catch (error) {
    throw new CliError(`--${option}: cannot read ${path} as JSON (${(error as Error).message})`);
  }
}

const ids = (values: Values, option: string): number[] | undefined => {
  const given = values[option];
  if (!Array.isArray(given)) return undefined;
  return given.map((value) => {
    const id = Number(value);
    if (!Number.isInteger(id) || id <= 0) throw new UsageError(`--${option}: expected ids, not '${value}'`);
    return id;
  });
};

const CATALOGUE: Command[] = [
  {
    name: 'categories add',
    summary: 'add an event category (prints its id)',
    api: true,
    help: `Usage: channel-server categories add --channel KEY --name NAME [--parent ID] [--alias ALIAS] [--sport SPORT]
         [--gender male|female]

Adds a category (a sport, or one of its subcategories with --parent) and prints its id.
${CONNECTION_HELP}`,
    options: {
      channel: { type: 'string' },
      name: { type: 'string' },
      parent: { type: 'string' },
      alias: { type: 'string' },
      sport: { type: 'string' },
      gender: { type: 'string' },
    },
    async run(run) {
      const v = run.values;
      await create(
        run,
        'categories',
        {
          name: need(v, 'name'),
          parent_id: idOf(v, 'parent'),
          alias: str(v, 'alias'),
          sport: str(v, 'sport'),
          gender: str(v, 'gender'),
        },
        { name: '--name', parent_id: '--parent', alias: '--alias', sport: '--sport', gender: '--gender' },
      );
    },
  },
  {
    name: 'participants add',
    summary: 'add a participant, such as a team (prints its id)',
    api: true,
    help: `Usage: channel-server participants add --channel KEY --name NAME [--short-name ABBR] [--alias ALIAS]
         [--group ID] [--parent ID] [--logo URL] [--color #1d4ed8] [--sport SPORT] [--gender male|female]

Adds a participant (a team, usually) and prints its id: events name it with --home and --away.
${CONNECTION_HELP}`,
    options: {
      channel: { type: 'string' },
      name: { type: 'string' },
      'short-name': { type: 'string' },
      alias: { type: 'string' },
      group: { type: 'string' },
      parent: { type: 'string' },
      logo: { type: 'string' },
      color: { type: 'string' },
      sport: { type: 'string' },
      gender: { type: 'string' },
    },
    async run(run) {
      const v = run.values;
      await create(
        run,
        'participants',
        {
          name: need(v, 'name'),
          short_name: str(v, 'short-name'),
          alias: str(v, 'alias'),
          group_id: idOf(v, 'group'),
          parent_id: idOf(v, 'parent'),
          logo: str(v, 'logo'),
          color: str(v, 'color'),
          sport: str(v, 'sport'),
          gender: str(v, 'gender'),
        },
        {
          name: '--name',
          short_name: '--short-name',
          alias: '--alias',
          group_id: '--group',
          parent_id: '--parent',
          logo: '--logo',
          color: '--color',
          sport: '--sport',
          gender: '--gender',
        },
      );
    },
  },
  {
    name: 'locations add',
    summary: 'add a venue (prints its id)',
    api: true,
    help: `Usage: channel-server locations add --channel KEY --name NAME [--city CITY] [--state STATE] [--tz ZONE]

Adds a location (a venue) and prints its id: events name it with --location.
${CONNECTION_HELP}`,
    options: {
      channel: { type: 'string' },
      name: { type: 'string' },
      city: { type: 'string' },
      state: { type: 'string' },
      tz: { type: 'string' },
    },
    async run(run) {
      const v = run.values;
      const zone = str(v, 'tz');
      if (zone !== undefined && !isTimeZone(zone))
        throw new UsageError(`--tz: '${zone}' is not an IANA time zone (such as America/Chicago)`);
      await create(
        run,
        'locations',
        { name: need(v, 'name'), city: str(v, 'city'), state: str(v, 'state'), time_zone: zone },
        { name: '--name', city: '--city', state: '--state', time_zone: '--tz' },
      );
    },
  },
  {
    name: 'packages add',
    summary: 'add a package: a pass for categories or teams (prints its id)',
    api: true,
    help: `Usage: channel-server packages add --channel KEY --name NAME --price AMOUNT [--category ID]… [--team ID]…
         [--base-price AMOUNT] [--service-fee AMOUNT] [--period TEXT] [--offer TEXT] [--description TEXT]
         [--weight N] [--type category|single]

Adds a package and prints its id. A category pass covers the events of each --category (their subcategories
included); with --team (repeated) it is a team pass, bought for one of those teams. The price is what the viewer
pays; --base-price and --service-fee split it on the receipt.
${CONNECTION_HELP}`,
    options: {
      channel: { type: 'string' },
      name: { type: 'string' },
      price: { type: 'string' },
      type: { type: 'string' },
      category: { type: 'string', multiple: true },
      team: { type: 'string', multiple: true },
      'base-price': { type: 'string' },
      'service-fee': { type: 'string' },
      period: { type: 'string' },
      offer: { type: 'string' },
      description: { type: 'string' },
      weight: { type: 'string' },
    },
    async run(run) {
      const v = run.values;
      const type = str(v, 'type') ?? 'category';
      if (type !== 'category' && type !== 'single')
        throw new UsageError(`--type: expected one of category, single, not '${type}'`);
      need(v, 'price');
      const teams = ids(v, 'team');
      await create(
        run,
        'packages',
        {
          name: need(v, 'name'),
          type,
          price: numberOf(v, 'price'),
          base_price: numberOf(v, 'base-price'),
          service_fee: numberOf(v, 'service-fee'),
          category_ids: ids(v, 'category'),
          participant_ids: teams,
          is_team_pass: teams ? true : undefined,
          period: str(v, 'period'),
          offer: str(v, 'offer'),
          description: str(v, 'description'),
          weight: numberOf(v, 'weight', true),
        },
        {
          name: '--name',
          type: '--type',
          price: '--price',
          base_price: '--base-price',
          service_fee: '--service-fee',
          category_ids: '--category',
          participant_ids: '--team',
          period: '--period',
          offer: '--offer',
          description: '--description',
          weight: '--weight',
        },
      );
    },
  },
  {
    name: 'pages add',
    summary: 'add a page of blocks (prints its id)',
    api: true,
    help: `Usage: channel-server pages add --channel KEY --name NAME --page-url /about [--alias ALIAS] [--alt-name NAME]
         [--blocks FILE.json]

Adds a page of the site (<channel-app> opens it at --page-url; --url is the operator API's) and prints its id. FILE.json holds its blocks, a JSON
array as GET /pages/{alias} serves them ([{"type": "paragraph", "html": "<p>…</p>"}]). The alias (the page's name
in the API) is the url without its slashes unless --alias says otherwise.
${CONNECTION_HELP}`,
    options: {
      channel: { type: 'string' },
      name: { type: 'string' },
      'page-url': { type: 'string' },
      alias: { type: 'string' },
      'alt-name': { type: 'string' },
      blocks: { type: 'string' },
    },
    async run(run) {
      const v = run.values;
      const url = need(v, 'page-url');
      const blocks = jsonFile(run, 'blocks');
      if (blocks !== undefined && !Array.isArray(blocks))
        throw new UsageError('--blocks: expected a JSON array of blocks');
      await create(
        run,
        'pages',
        {
          name: need(v, 'name'),
          url,
          alias: str(v, 'alias') ?? url.replace(/\//g, ''),
          alt_name: str(v, 'alt-name'),
          blocks,
        },
        { name: '--name', url: '--page-url', alias: '--alias', alt_name: '--alt-name', blocks: '--blocks' },
      );
    },
  },
];

/** `{resource} list` for the records the add commands make. */
const LISTS: Command[] = (
  [
    [
      'categories',
      'categories',
      [
        ['PARENT', (row: Record_) => row.parent_id],
        ['ALIAS', (row: Record_) => row.alias],
      ],
    ],
    [
      'participants',
      'participants',
      [
        ['SHORT', (row: Record_) => row.short_name],
        ['ALIAS', (row: Record_) => row.alias],
      ],
    ],
    [
      'locations',
      'locations',
      [
        ['CITY', (row: Record_) => row.city],
        ['ZONE', (row: Record_) => row.time_zone],
      ],
    ],
    [
      'packages',
      'packages',
      [
        ['TYPE', (row: Record_) => row.type],
        ['PRICE', (row: Record_) => row.price],
      ],
    ],
    ['pages', 'pages', [['URL', (row: Record_) => row.url]]],
  ] as Array<[string, string, Array<[string, (row: Record_) => unknown]>]>
).map(([name, resource, extra]) => ({
  name: `${name} list`,
  summary: `list the channel's ${name}`,
  api: true,
  help: `Usage: channel-server ${name} list --channel KEY [--offset N] [--limit N]

Lists the channel's ${name} (their ids are what other commands take).
${CONNECTION_HELP}`,
  options: LIST_OPTIONS,
  async run(run: Run) {
    await list(run, resource, [['ID', (row) => row.id], ...extra, ['NAME', (row) => row.name ?? row.title]]);
  },
}));

export const API_COMMANDS: Command[] = [...EVENTS, ...SECRETS, ...CATALOGUE, ...LISTS];
