/* eslint-disable max-lines -- the operator API's routes in one table: the channel, secrets, operators, audit, the catalogue */
/**
 * The operator API (`/operator/v1/…`, JSON only), on a listener of its own (OPERATOR_HOST:OPERATOR_PORT, loopback by
 * default; app/server.ts starts and drains it). Every request but `GET /operator/v1/openapi.json` carries
 * `Authorization: Bearer chop_…`, checked against the database each time (operators.ts), so a revoked token is
 * refused by every process at once: 401 without one, or with an unknown or revoked one; 403 when the path's channel
 * is not the token's, or the role may not (an editor has the catalogue; an owner also the channel's secrets, its
 * operators and its audit log).
 *
 * Every change is made in one transaction with its audit entry (and its Idempotency-Key's answer), and once
 * committed reaches every process: `catalog_changed` (each drops its cached events) and `channel_settings` (each
 * reads the channel's settings and prerolls again, and rewrites their stored copy). The channel API's answers are
 * then at most a minute old in browsers (their Cache-Control). See docs/operator-api.md.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type * as z from 'zod';
import { forgetEventJson, type Clock } from '../catalog/events.js';
import type { Channels } from '../channel/channel-api.js';
import { muxPrivateKeyPem } from '../media/sources/mux.js';
import { SECRET_NAMES, secretsSet, setChannelSecrets, type SecretName } from '../channel/secrets.js';
import { settingsProblems } from '../channel/settings-rules.js';
import { splitPrice } from '../commerce/products.js';
import type { PaymentProviders } from '../commerce/providers/provider.js';
import { HttpError, readBody, errorSummary } from '../http/http.js';
import type { Logger } from '../observability/log.js';
import type { ChannelDb, Row } from '../storage/db.js';
import {
  audit,
  checkIfMatch,
  etagOf,
  idempotent,
  invalid,
  isoOfMs,
  notFound,
  OperatorError,
  pageOf,
  parseBody,
  pruneIdempotency,
  type Answer,
} from './engine.js';
import { cancelEvent, eventStore } from './events-admin.js';
import {
  addOperator,
  issueOperatorToken,
  operatorByToken,
  OperatorExists,
  revokeOperatorToken,
  type Operator,
} from './operators.js';
import { TABLE_STORES, type Json, type ResourceStore } from './resources.js';
import {
  ChannelCreate,
  ChannelPatch,
  OPERATOR_API_BASE,
  OperatorCreate,
  RESOURCE_NAMES,
  SECRET_GROUPS,
  SecretsPut,
  TokenCreate,
  type ResourceName,
  type SecretGroup,
} from './schemas.js';
import { openApiDocument } from './openapi.js';
import { exportChannel } from '../fixtures/export.js';
import { readImage, storeImage } from './uploads.js';
import { ingestKeyOf, resetIngest } from '../media/ingest/ingest.js';

/** The notification every catalogue change sends (payload: the channel id): each process drops its cached events. */
export const CATALOG_CHANGED = 'catalog_changed';

export interface OperatorContext {
  db: ChannelDb;
  nowMs(): number;
  clock(): Clock;
  /** Origins a script URL in settings may name (settings-rules.ts). */
  scriptOrigins: readonly string[];
  channels: Pick<Channels, 'settingsChanged' | 'storeSettings' | 'settingsOf'>;
  /** The card processor of each channel: packages and subscriptions are synced to its prices when it can. */
  payments: PaymentProviders | undefined;
  logger: Logger;
  /** INGEST_RTMP_URL, when live ingest is set up: the URL the stream keys go with (media/ingest/ingest.ts). */
  ingestRtmpUrl?: string | undefined;
  /** INGEST_HLS_DIR, and what forgets the files made from an event's folder (a reset: media/ingest/recording.ts). */
  ingestHlsDir?: string | undefined;
  discardIngestMedia?: ((eventId: number) => void) | undefined;
}

interface Call {
  req: IncomingMessage;
  method: string;
  parts: string[];
  query: URLSearchParams;
  operator: Operator;
}

const SECRET_FIELDS: Record<SecretGroup, Record<string, SecretName>> = {
  stripe: { secret_key: 'stripe_secret_key', webhook_secret: 'stripe_webhook_secret' },
  google: { client_secret: 'google_client_secret' },
  facebook: { app_secret: 'facebook_app_secret' },
  mux: { key_id: 'mux_signing_key_id', private_key: 'mux_signing_private_key' },
};

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = status === 204 ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...(status === 204 ? {} : { 'Content-Length': String(Buffer.byteLength(text)) }),
    ...headers,
  });
  res.end(text);
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A record's answer: `{ data }` with its ETag. */
const recordAnswer = (record: unknown, status = 200): Answer => ({
  status,
  body: { data: record },
  headers: { ETag: etagOf(record) },
});

export function operatorListener(ctx: OperatorContext): RequestListener {
  const { db, nowMs } = ctx;
  const languageOf = (channelId: number) => String(ctx.channels.settingsOf(channelId).language ?? 'en');
  const stores: Record<ResourceName, ResourceStore> = {
    ...(TABLE_STORES as Record<ResourceName, ResourceStore>),
    events: eventStore(ctx.clock, languageOf),
  };
  let creates = 0;

  /**
   * What a committed change sets off: this process forgets its cached events at once (so its answer already shows
   * it; the others on the `catalog_changed` the change's transaction sent), and every process reads the channel's
   * settings and prerolls again.
   */
  async function catalogueChanged(channelId: number): Promise<void> {
    forgetEventJson(db);
    await ctx.channels.settingsChanged(channelId);
  }

  const requireOwner = (call: Call) => {
    if (call.operator.role !== 'owner')
      throw new OperatorError(403, 'forbidden', "Only the channel's owners may do this (an editor has the catalogue).");
  };

  const id = (text: string | undefined): number => {
    const n = text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new OperatorError(404, 'not_found', 'No such record: ids are numbers.');
    return n;
  };

  const requestKey = (call: Call, body: unknown) => JSON.stringify([call.method, call.parts, body]);

  // ---------------------------------------------------------------- the channel
  async function channelJson(channelId: number): Promise<Json | undefined> {
    const row = await db.get(
      'SELECT c.id, c.channel_key, c.name, s.json FROM channels c LEFT JOIN settings s ON s.channel_id = c.id WHERE c.id = ?',
      [channelId],
    );
    if (!row) return undefined;
    return {
      id: Number(row.id),
      key: String(row.channel_key),
      name: String(row.name),
      settings: row.json ? (JSON.parse(String(row.json)) as Json) : {},
    };
  }

  async function createChannel(call: Call, body: unknown): Promise<Answer> {
    requireOwner(call);
    const input = parseBody(ChannelCreate, body);
    const answer = await idempotent(
      db,
      call.operator,
      header(call.req, 'idempotency-key'),
      requestKey(call, body),
      nowMs(),
      async () => {
        if (await db.get('SELECT 1 AS one FROM channels WHERE channel_key = ?', [input.key]))
          throw invalid({ key: `is taken: a channel ${input.key} exists` });
        const channelId = await db.insert('INSERT INTO channels (channel_key, name) VALUES (?, ?)', [
          input.key,
          input.name,
        ]);
        const settings = { name: input.name, language: input.language ?? 'en', currency: input.currency ?? 'USD' };
        await db.run('INSERT INTO settings (channel_id, json, fixture_json) VALUES (?, ?, ?)', [
          channelId,
          JSON.stringify(settings),
          JSON.stringify(settings),
        ]);
        const owner = await addOperator(db, channelId, call.operator.email, 'owner', nowMs());
        const channel = (await channelJson(channelId))!;
        await audit(db, {
          channelId,
          operator: call.operator,
          at: nowMs(),
          action: 'create',
          resource: 'channel',
          recordId: channelId,
          after: channel,
        });
        return {
          status: 201,
          body: {
            data: {
              ...channel,
              owner: { operator_id: owner.id, email: call.operator.email, token: owner.token, token_id: owner.tokenId },
            },
          },
          headers: { ETag: etagOf(channel) },
        };
      },
    );
    if (!answer.replayed) {
      await ctx.channels.settingsChanged();
      await ctx.channels.storeSettings();
    }
    return answer;
  }

  async function patchChannel(call: Call, body: unknown): Promise<Answer> {
    requireOwner(call);
    const input = parseBody(ChannelPatch, body);
    const channelId = call.operator.channelId;
    const after = await db.transaction(async () => {
      await db.get('SELECT id FROM channels WHERE id = ? FOR UPDATE', [channelId]);
      const before = (await channelJson(channelId))!;
      checkIfMatch(header(call.req, 'if-match'), before);
      const settings = { ...(before.settings as Json) };
      for (const [key, value] of Object.entries(input.settings ?? {})) {
        if (value === null) delete settings[key];
        else settings[key] = value;
      }
      if (input.name !== undefined) settings.name = input.name;
      const problems = settingsProblems(settings, ctx.scriptOrigins);
      if (Object.keys(problems).length)
        throw invalid(
          Object.fromEntries(
            Object.entries(problems).map(([field, messages]) => [
              field === 'settings' ? 'settings' : `settings.${field}`,
              messages.join('; '),
            ]),
          ),
        );
      if (input.name !== undefined) await db.run('UPDATE channels SET name = ? WHERE id = ?', [input.name, channelId]);
      await db.run('UPDATE settings SET json = ? WHERE channel_id = ?', [JSON.stringify(settings), channelId]);
      const changed = (await channelJson(channelId))!;
      await audit(db, {
        channelId,
        operator: call.operator,
        at: nowMs(),
        action: 'update',
        resource: 'channel',
        recordId: channelId,
        before,
        after: changed,
      });
      return changed;
    });
    // The name is in the channels' list too: every channel's row is read again.
    await ctx.channels.settingsChanged(input.name === undefined ? channelId : undefined);
    await ctx.channels.storeSettings(channelId);
    return recordAnswer(after);
  }

  // ---------------------------------------------------------------- secrets
  async function secretsJson(channelId: number): Promise<Json> {
    const set = await secretsSet(db, channelId);
    return Object.fromEntries(
      SECRET_NAMES.map((name) => [name, { set: set[name] !== undefined, updated_at: isoOfMs(set[name]) }]),
    );
  }

  async function putSecrets(call: Call, group: SecretGroup, body: unknown | null): Promise<Answer> {
    const fields = SECRET_FIELDS[group];
    const values: Partial<Record<SecretName, string | null>> = {};
    if (body === null) for (const name of Object.values(fields)) values[name] = null;
    else {
      const input = parseBody(SecretsPut[group] as z.ZodObject, body) as Record<string, string>;
      for (const [field, name] of Object.entries(fields)) values[name] = input[field]!;
      // Kept as PEM text, whether Mux's base64 of it or the PEM was given (checked by the schema).
      if (group === 'mux') values.mux_signing_private_key = muxPrivateKeyPem(input.private_key!);
    }
    const channelId = call.operator.channelId;
    await db.transaction(async () => {
      const changed = await setChannelSecrets(db, channelId, values, nowMs());
      // Which secrets were set or removed, never their values.
      await audit(db, {
        channelId,
        operator: call.operator,
        at: nowMs(),
        action: body === null ? 'delete' : 'set',
        resource: 'secrets',
        recordId: group,
        after: Object.fromEntries(changed.map((name) => [name, body === null ? 'removed' : 'set'])),
      });
    });
    return { status: 200, body: { data: await secretsJson(channelId) } };
  }

  // ---------------------------------------------------------------- operators
  async function operatorsJson(channelId: number, only?: number): Promise<Json[]> {
    const rows = await db.all(
      `SELECT id, email, role, created_at FROM operators WHERE channel_id = ? AND removed_at IS NULL${only ? ' AND id = ?' : ''} ORDER BY id`,
      only ? [channelId, only] : [channelId],
    );
    const out: Json[] = [];
    for (const row of rows) {
      const tokens = await db.all(
        'SELECT id, label, created_at, last_used_at, revoked_at FROM operator_tokens WHERE operator_id = ? ORDER BY id',
        [row.id!],
      );
      out.push({
        id: Number(row.id),
        email: String(row.email),
        role: String(row.role),
        created_at: isoOfMs(row.created_at),
        tokens: tokens.map((t: Row) => ({
          id: Number(t.id),
          label: t.label === null ? null : String(t.label),
          created_at: isoOfMs(t.created_at),
          last_used_at: isoOfMs(t.last_used_at),
          revoked_at: isoOfMs(t.revoked_at),
        })),
      });
    }
    return out;
  }

  async function operatorRoutes(call: Call, rest: string[], body: () => Promise<unknown>): Promise<Answer> {
    requireOwner(call);
    const channelId = call.operator.channelId;
    const { method } = call;
    if (rest[0] === 'tokens') {
      if (method !== 'DELETE' || rest.length !== 2) throw methodNotAllowed();
      const tokenId = id(rest[1]);
      await db.transaction(async () => {
        if (!(await revokeOperatorToken(db, channelId, tokenId, nowMs()))) throw notFound('token (or it is revoked)');
        await audit(db, {
          channelId,
          operator: call.operator,
          at: nowMs(),
          action: 'revoke',
          resource: 'token',
          recordId: tokenId,
        });
      });
      return { status: 204, body: null };
    }
    if (rest.length === 1) {
      if (method === 'GET') {
        const data = await operatorsJson(channelId);
        return { status: 200, body: { data, meta: { total: data.length, offset: 0, limit: data.length } } };
      }
      if (method !== 'POST') throw methodNotAllowed();
      const raw = await body();
      const input = parseBody(OperatorCreate, raw);
      return idempotent(
        db,
        call.operator,
        header(call.req, 'idempotency-key'),
        requestKey(call, raw),
        nowMs(),
        async () => {
          let made: Awaited<ReturnType<typeof addOperator>>;
          try {
            made = await addOperator(db, channelId, input.email, input.role, nowMs());
          } catch (error) {
            if (error instanceof OperatorExists) throw invalid({ email: 'is already an operator of this channel' });
            throw error;
          }
          const [operator] = await operatorsJson(channelId, made.id);
          await audit(db, {
            channelId,
            operator: call.operator,
            at: nowMs(),
            action: 'create',
            resource: 'operator',
            recordId: made.id,
            after: operator,
          });
          return { status: 201, body: { data: { ...operator, token: made.token, token_id: made.tokenId } } };
        },
      );
    }
    const operatorId = id(rest[1]);
    const [found] = await operatorsJson(channelId, operatorId);
    if (!found) throw notFound('operator');
    if (rest.length === 2 && method === 'DELETE') {
      await db.transaction(async () => {
        // The channel's row is locked first: two removals at once are counted one after the other, so the second
        // sees the first's and the channel never loses its last owner. The operator is read again under the lock.
        await db.get('SELECT id FROM channels WHERE id = ? FOR UPDATE', [channelId]);
        const [target] = await operatorsJson(channelId, operatorId);
        if (!target) throw notFound('operator');
        if (target.role === 'owner') {
          const owners = await db.get(
            "SELECT count(*) AS n FROM operators WHERE channel_id = ? AND role = 'owner' AND removed_at IS NULL",
            [channelId],
          );
          if (Number(owners!.n) <= 1)
            throw new OperatorError(409, 'conflict', "This is the channel's last owner: add another owner first.");
        }
        await db.run('UPDATE operators SET removed_at = ? WHERE id = ?', [nowMs(), operatorId]);
        await db.run('UPDATE operator_tokens SET revoked_at = ? WHERE operator_id = ? AND revoked_at IS NULL', [
          nowMs(),
          operatorId,
        ]);
        await audit(db, {
          channelId,
          operator: call.operator,
          at: nowMs(),
          action: 'delete',
          resource: 'operator',
          recordId: operatorId,
          before: target,
        });
      });
      return { status: 204, body: null };
    }
    if (rest.length === 3 && rest[2] === 'tokens' && method === 'POST') {
      const raw = await body();
      const input = parseBody(TokenCreate, raw);
      return idempotent(
        db,
        call.operator,
        header(call.req, 'idempotency-key'),
        requestKey(call, raw),
        nowMs(),
        async () => {
          const issued = await issueOperatorToken(db, operatorId, nowMs(), input.label ?? null);
          await audit(db, {
            channelId,
            operator: call.operator,
            at: nowMs(),
            action: 'create',
            resource: 'token',
            recordId: issued.id,
            after: { operator_id: operatorId, label: input.label ?? null },
          });
          return { status: 201, body: { data: { operator_id: operatorId, token_id: issued.id, token: issued.token } } };
        },
      );
    }
    throw methodNotAllowed();
  }

  // ---------------------------------------------------------------- the audit log
  async function auditList(call: Call): Promise<Answer> {
    requireOwner(call);
    const { offset, limit } = pageOf(call.query);
    const channelId = call.operator.channelId;
    const total = Number(
      (await db.get('SELECT count(*) AS n FROM operator_audit WHERE channel_id = ?', [channelId]))!.n,
    );
    const rows = await db.all('SELECT * FROM operator_audit WHERE channel_id = ? ORDER BY id DESC LIMIT ? OFFSET ?', [
      channelId,
      limit,
      offset,
    ]);
    const data = rows.map((row) => ({
      id: Number(row.id),
      actor: String(row.actor),
      operator_id: row.operator_id === null ? null : Number(row.operator_id),
      at: isoOfMs(row.at),
      action: String(row.action),
      resource: String(row.resource),
      record_id: row.record_id === null ? null : String(row.record_id),
      before: row.before_json === null ? null : (JSON.parse(String(row.before_json)) as unknown),
      after: row.after_json === null ? null : (JSON.parse(String(row.after_json)) as unknown),
    }));
    return { status: 200, body: { data, meta: { total, offset, limit } } };
  }

  // ---------------------------------------------------------------- the catalogue
  /** Packages and subscriptions: their price at the channel's processor, once their change is committed. */
  async function syncPrice(channelId: number, resource: ResourceName, record: Json): Promise<Json> {
    if (resource !== 'packages' && resource !== 'subscriptions') return record;
    const key = String((await db.get('SELECT channel_key FROM channels WHERE id = ?', [channelId]))!.channel_key);
    const provider = ctx.payments?.(key);
    if (!provider?.syncPrice) return record;
    // What the buyer pays a period, as a sale charges it (products.ts: the price before fees plus the fee).
    const { price: beforeFees, fee } = splitPrice(
      Number(record.price),
      record.base_price as number | null,
      record.service_fee as number | null,
    );
    const interval = resource === 'subscriptions' ? (record.offer === 'annual' ? 'year' : 'month') : undefined;
    try {
      const price = await provider.syncPrice({
        kind: resource === 'packages' ? 'package' : 'subscription',
        id: Number(record.id),
        name: String(record.name),
        amount: Math.round((beforeFees + fee) * 100) / 100,
        currency: String(ctx.channels.settingsOf(channelId).currency ?? 'USD'),
        ...(interval ? { interval } : {}),
        previous: (record.processor_price as string | null) ?? null,
      });
      if (price !== record.processor_price)
        await db.run(`UPDATE ${resource} SET processor_price = ? WHERE id = ?`, [price, record.id as number]);
      return { ...record, processor_price: price };
    } catch (error) {
      ctx.logger.warn(
        { err: error },
        `the ${resource} ${String(record.id)} price could not be synced to the processor`,
      );
      return record;
    }
  }

  async function catalogue(
    call: Call,
    resource: ResourceName,
    rest: string[],
    body: () => Promise<unknown>,
  ): Promise<Answer> {
    const store = stores[resource];
    const channelId = call.operator.channelId;
    const { method } = call;
    const at = nowMs();
    if (rest.length === 0) {
      if (method === 'GET') {
        const { offset, limit } = pageOf(call.query);
        const { total, data } = await store.list(db, channelId, offset, limit);
        return { status: 200, body: { data, meta: { total, offset, limit } } };
      }
      if (method !== 'POST') throw methodNotAllowed();
      const raw = await body();
      const input = parseBody(store.create, raw) as Json;
      const answer = await idempotent(
        db,
        call.operator,
        header(call.req, 'idempotency-key'),
        requestKey(call, raw),
        at,
        async () => {
          const problems = store.check?.(input) ?? {};
          if (Object.keys(problems).length) throw invalid(problems);
          const recordId = await store.insert(db, channelId, input);
          const record = (await store.get(db, channelId, recordId))!;
          await audit(db, {
            channelId,
            operator: call.operator,
            at,
            action: 'create',
            resource,
            recordId,
            after: record,
          });
          await db.notify(CATALOG_CHANGED, String(channelId));
          return recordAnswer(record, 201);
        },
      );
      if (answer.replayed) return answer;
      await catalogueChanged(channelId);
      if (++creates % 100 === 0) await pruneIdempotency(db, at);
      const record = (answer.body as { data: Json }).data;
      const synced = await syncPrice(channelId, resource, record);
      return synced === record ? answer : recordAnswer(synced, 201);
    }
    const recordId = id(rest[0]);
    if (rest.length === 1 && method === 'GET') {
      const record = await store.get(db, channelId, recordId);
      if (!record) throw notFound(resource);
      return recordAnswer(record);
    }
    const ifMatch = header(call.req, 'if-match');
    if (rest.length === 1 && method === 'PATCH') {
      const raw = await body();
      const input = parseBody(store.patch, raw) as Json;
      const record = await db.transaction(async () => {
        const before = await store.get(db, channelId, recordId, true);
        if (!before) throw notFound(resource);
        checkIfMatch(ifMatch, before);
        const problems = store.check?.({ ...before, ...input }) ?? {};
        if (Object.keys(problems).length) throw invalid(problems);
        await store.update(db, channelId, recordId, input, before);
        const after = (await store.get(db, channelId, recordId))!;
        await audit(db, {
          channelId,
          operator: call.operator,
          at,
          action: 'update',
          resource,
          recordId,
          before,
          after,
        });
        await db.notify(CATALOG_CHANGED, String(channelId));
        return after;
      });
      await catalogueChanged(channelId);
      return recordAnswer(await syncPrice(channelId, resource, record));
    }
    if (rest.length === 1 && method === 'DELETE') {
      await db.transaction(async () => {
        const before = await store.get(db, channelId, recordId, true);
        if (!before) throw notFound(resource);
        checkIfMatch(ifMatch, before);
        await store.remove(db, channelId, recordId);
        await audit(db, { channelId, operator: call.operator, at, action: 'delete', resource, recordId, before });
        await db.notify(CATALOG_CHANGED, String(channelId));
      });
      await catalogueChanged(channelId);
      return { status: 204, body: null };
    }
    if (resource === 'participants' && rest.length === 2 && rest[1] === 'logo' && method === 'PUT') {
      const image = await readImage(call.req);
      const record = await db.transaction(async () => {
        const before = await store.get(db, channelId, recordId, true);
        if (!before) throw notFound('participant');
        checkIfMatch(ifMatch, before);
        const logo = await storeImage(db, channelId, image, at);
        await store.update(db, channelId, recordId, { logo }, before);
        const after = (await store.get(db, channelId, recordId))!;
        await audit(db, {
          channelId,
          operator: call.operator,
          at,
          action: 'update',
          resource,
          recordId,
          before,
          after,
        });
        await db.notify(CATALOG_CHANGED, String(channelId));
        return after;
      });
      await catalogueChanged(channelId);
      return recordAnswer(record);
    }
    if (resource === 'events' && rest.length === 2 && rest[1] === 'cancel' && method === 'POST') {
      const record = await db.transaction(async () => {
        const before = await store.get(db, channelId, recordId, true);
        if (!before) throw notFound('event');
        checkIfMatch(ifMatch, before);
        await cancelEvent(db, channelId, recordId, Math.floor(at / 1000));
        const after = (await store.get(db, channelId, recordId))!;
        if (before.status !== 'cancelled') {
          await audit(db, {
            channelId,
            operator: call.operator,
            at,
            action: 'cancel',
            resource,
            recordId,
            before,
            after,
          });
          await db.notify(CATALOG_CHANGED, String(channelId));
        }
        return after;
      });
      await catalogueChanged(channelId);
      return recordAnswer(record);
    }
    if (resource === 'events' && rest[1] === 'ingest' && rest[2] === 'reset' && rest.length === 3) {
      if (method !== 'POST') throw methodNotAllowed();
      return ingestReset(call, channelId, recordId, at, store);
    }
    if (resource === 'events' && rest[1] === 'ingest') {
      const rotate = rest.length === 3 && rest[2] === 'rotate' && method === 'POST';
      if (!rotate && !(rest.length === 2 && method === 'GET')) throw methodNotAllowed();
      return ingestKey(call, channelId, recordId, rotate, at);
    }
    throw methodNotAllowed();
  }

  /**
   * An ingest event's RTMP URL and stream key (media/ingest/ingest.ts): made on first ask, new on rotate. The key is
   * audited as made or rotated, never written there; the answer is not stored by anyone (no-store).
   */
  async function ingestKey(call: Call, channelId: number, eventId: number, rotate: boolean, at: number) {
    if (!ctx.ingestRtmpUrl)
      throw new OperatorError(
        409,
        'conflict',
        'Live ingest is not set up on this server: INGEST_RTMP_URL and INGEST_HLS_DIR (docs/streams.md).',
      );
    const rtmpUrl = ctx.ingestRtmpUrl;
    const key = await db.transaction(async () => {
      const made = await ingestKeyOf(db, channelId, eventId, rotate);
      if (made === undefined) throw notFound('event');
      if (made === 'not_ingest')
        throw new OperatorError(
          409,
          'conflict',
          "This event's stream is not pushed from an encoder: set its stream source to ingest first.",
        );
      if (made.made)
        await audit(db, {
          channelId,
          operator: call.operator,
          at,
          action: rotate ? 'rotate_stream_key' : 'make_stream_key',
          resource: 'events',
          recordId: eventId,
        });
      return made.key;
    });
    return { status: 200, body: { data: { rtmp_url: rtmpUrl, stream_key: key } } };
  }

  /**
   * Clears an ingest event's pushes (media/ingest/ingest.ts resetIngest): upcoming again, its folder and recording
   * gone, so that an encoder's test before the game is not the game. Audited; 409 while on air.
   */
  async function ingestReset(call: Call, channelId: number, eventId: number, at: number, store: ResourceStore) {
    const hlsDir = ctx.ingestHlsDir;
    if (!hlsDir)
      throw new OperatorError(
        409,
        'conflict',
        'Live ingest is not set up on this server: INGEST_RTMP_URL and INGEST_HLS_DIR (docs/streams.md).',
      );
    const { anchor, now } = ctx.clock();
    await db.transaction(async () => {
      const done = await resetIngest(db, channelId, eventId, now - anchor, hlsDir);
      if (done === undefined) throw notFound('event');
      if (done === 'not_ingest')
        throw new OperatorError(409, 'conflict', "This event's stream is not pushed from an encoder.");
      if (done === 'on_air')
        throw new OperatorError(
          409,
          'conflict',
          'This event is on air (its encoder is pushing, or may come back within the reconnect grace): stop the push first.',
        );
      await audit(db, {
        channelId,
        operator: call.operator,
        at,
        action: 'reset_ingest',
        resource: 'events',
        recordId: eventId,
      });
      await db.notify(CATALOG_CHANGED, String(channelId));
    });
    ctx.discardIngestMedia?.(eventId);
    await catalogueChanged(channelId);
    return recordAnswer((await store.get(db, channelId, eventId))!);
  }

  // ---------------------------------------------------------------- routing
  const methodNotAllowed = () => new OperatorError(405, 'bad_request', 'This method is not allowed on this path.');

  async function route(call: Call, body: () => Promise<unknown>): Promise<Answer> {
    const { parts, method, operator } = call;
    if (parts[0] !== 'channels') throw new OperatorError(404, 'not_found', 'No such route: see docs/operator-api.md.');
    if (parts.length === 1) {
      if (method !== 'POST') throw methodNotAllowed();
      return createChannel(call, await body());
    }
    const key = parts[1]!;
    if (key !== operator.channelKey)
      throw new OperatorError(403, 'forbidden', `This token is for channel ${operator.channelKey}, not ${key}.`);
    const [what, ...rest] = parts.slice(2);
    if (what === undefined) {
      if (method === 'GET') return recordAnswer(await channelJson(operator.channelId));
      if (method === 'PATCH') return patchChannel(call, await body());
      throw methodNotAllowed();
    }
    if (what === 'secrets') {
      requireOwner(call);
      if (rest.length === 0 && method === 'GET')
        return { status: 200, body: { data: await secretsJson(operator.channelId) } };
      const group = rest[0] as SecretGroup;
      if (rest.length !== 1 || !SECRET_GROUPS.includes(group))
        throw new OperatorError(404, 'not_found', `No such secrets: they are ${SECRET_GROUPS.join(', ')}.`);
      if (method === 'PUT') return putSecrets(call, group, await body());
      if (method === 'DELETE') return putSecrets(call, group, null);
      throw methodNotAllowed();
    }
    if (what === 'operators') return operatorRoutes(call, parts.slice(2), body);
    if (what === 'tokens') return operatorRoutes(call, ['tokens', ...rest], body);
    if (what === 'export') {
      if (method !== 'GET' || rest.length) throw methodNotAllowed();
      // Read by editors too: a channel file holds the catalogue and settings, never a secret, token or account.
      return { status: 200, body: { data: await exportChannel(db, key, ctx.clock()) } };
    }
    if (what === 'audit') {
      if (method !== 'GET' || rest.length) throw methodNotAllowed();
      return auditList(call);
    }
    if ((RESOURCE_NAMES as string[]).includes(what)) {
      const unique = stores[what as ResourceName].unique;
      try {
        return await catalogue(call, what as ResourceName, rest, body);
      } catch (error) {
        if (unique && (error as { code?: unknown }).code === '23505')
          throw invalid({ [unique]: `is taken: another of the channel's ${what} has it` });
        throw error;
      }
    }
    throw new OperatorError(404, 'not_found', `No such resource: ${what}.`);
  }

  const openApi = JSON.stringify(openApiDocument());

  return (req, res) => {
    const answer = async (): Promise<Answer> => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      if (!url.pathname.startsWith(`${OPERATOR_API_BASE}/`))
        throw new OperatorError(404, 'not_found', `The operator API is under ${OPERATOR_API_BASE}/.`);
      const parts = url.pathname
        .slice(OPERATOR_API_BASE.length + 1)
        .split('/')
        .filter(Boolean)
        .map((part) => decodeURIComponent(part));
      if (parts.length === 1 && parts[0] === 'openapi.json' && method === 'GET')
        return { status: 200, body: JSON.parse(openApi) as unknown };
      const auth = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
      const operator = auth ? await operatorByToken(db, auth[1]!) : undefined;
      if (!operator)
        throw new OperatorError(
          401,
          'unauthorized',
          auth ? 'This token is unknown or revoked.' : 'An operator token is needed: Authorization: Bearer chop_…',
        );
      // When a token was last used (at most once a minute each): what an owner reads before revoking old ones.
      await db.run('UPDATE operator_tokens SET last_used_at = ? WHERE id = ? AND coalesce(last_used_at, 0) < ?', [
        nowMs(),
        operator.tokenId,
        nowMs() - 60_000,
      ]);
      const body = async () => {
        const type = (header(req, 'content-type') ?? '').toLowerCase();
        if (type && !type.startsWith('application/json'))
          throw new OperatorError(415, 'bad_request', 'Bodies are JSON: Content-Type: application/json.');
        return readBody(req);
      };
      return route({ req, method, parts, query: url.searchParams, operator }, body);
    };
    answer().then(
      ({ status, body, headers }) => send(res, status, body, headers),
      (error: unknown) => {
        if (error instanceof OperatorError)
          return send(res, error.status, { error: error.code, message: error.message, ...error.extra });
        if (error instanceof HttpError) {
          const code = error.status === 413 ? 'too_large' : error.status === 422 ? 'invalid' : 'bad_request';
          const errors = error.errors
            ? Object.fromEntries(Object.entries(error.errors).map(([field, messages]) => [field, messages.join('; ')]))
            : undefined;
          return send(res, error.status, { error: code, message: error.message, ...(errors ? { errors } : {}) });
        }
        if (error instanceof URIError) return send(res, 400, { error: 'bad_request', message: 'Malformed URL.' });
        const code = (error as { code?: unknown }).code;
        if (code === '23503')
          return send(res, 409, {
            error: 'conflict',
            message: 'Other records (or orders) still name this one: change or remove them first.',
          });
        if (code === '23505')
          return send(res, 422, {
            error: 'invalid',
            message: 'A record with this value exists.',
            errors: { body: 'a unique field (code, alias, key) is taken' },
          });
        ctx.logger.error({ err: error }, `operator API: ${errorSummary(error)}`);
        return send(res, 500, { error: 'internal', message: 'Something went wrong; it is logged.' });
      },
    );
  };
}
