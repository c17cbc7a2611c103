/**
 * The operator API as an OpenAPI 3.1 document, generated from its zod schemas (schemas.ts) with zod's own JSON Schema
 * output (2020-12, the dialect OpenAPI 3.1 uses). Served at `GET /operator/v1/openapi.json` and written to
 * docs/operator-api.json (`npm run build`; `npm run check:generated` fails when the committed one differs).
 */
import * as z from 'zod';
import { ChannelFile } from '../fixtures/channel-file.js';
import * as s from './schemas.js';

type Json = Record<string, unknown>;

const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete json.$schema;
  return json;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const one = (name: string) => ({ type: 'object', properties: { data: ref(name) }, required: ['data'] });
const list = (name: string) => ({
  type: 'object',
  properties: { data: { type: 'array', items: ref(name) }, meta: ref('ListMeta') },
  required: ['data', 'meta'],
});
const content = (schema: unknown) => ({ 'application/json': { schema } });
const ok = (schema: unknown, status = '200', description = 'OK') => ({
  [status]: { description, content: content(schema), headers: {} },
});
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    [401, 403, ...statuses].map((status) => [
      String(status),
      { description: ERROR_TEXT[status] ?? 'Error', content: content(ref('ErrorAnswer')) },
    ]),
  );
const ERROR_TEXT: Record<number, string> = {
  401: 'No token, or an unknown or revoked one',
  403: "Not this token's channel, or the role may not",
  404: 'No such record',
  409: 'If-Match is stale (the body carries the current etag), or other records still name this one',
  422: 'A field is invalid (errors names each), or the Idempotency-Key was used with another body',
};
const noContent = { '204': { description: 'Done' } };
const body = (name: string) => ({ required: true, content: content(ref(name)) });
const key = { name: 'key', in: 'path', required: true, schema: { type: 'string' }, description: 'The channel key' };
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
const page = [
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
];
const ifMatch = {
  name: 'If-Match',
  in: 'header',
  schema: { type: 'string' },
  description: 'The ETag the change is based on: a stale one is refused (409)',
};
const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  schema: { type: 'string', maxLength: 200 },
  description: 'The same key and body again answer the first answer (no second record); kept 24 hours',
};

const pascal = (name: string) =>
  name
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

export function openApiDocument(): Json {
  const schemas: Json = {
    ErrorAnswer: schemaOf(s.ErrorAnswer, 'output'),
    ListMeta: schemaOf(s.ListMeta, 'output'),
    ChannelCreate: schemaOf(s.ChannelCreate, 'input'),
    ChannelPatch: schemaOf(s.ChannelPatch, 'input'),
    Channel: schemaOf(s.Channel, 'output'),
    ChannelCreated: schemaOf(s.ChannelCreated, 'output'),
    Secrets: schemaOf(s.Secrets, 'output'),
    StripeSecrets: schemaOf(s.SecretsPut.stripe, 'input'),
    GoogleSecrets: schemaOf(s.SecretsPut.google, 'input'),
    FacebookSecrets: schemaOf(s.SecretsPut.facebook, 'input'),
    OperatorCreate: schemaOf(s.OperatorCreate, 'input'),
    Operator: schemaOf(s.Operator, 'output'),
    OperatorCreated: schemaOf(s.OperatorCreated, 'output'),
    TokenCreate: schemaOf(s.TokenCreate, 'input'),
    TokenIssued: schemaOf(s.TokenIssued, 'output'),
    AuditEntry: schemaOf(s.AuditEntry, 'output'),
  };
  const paths: Json = {
    '/channels': {
      post: {
        operationId: 'createChannel',
        summary: "An owner creates another channel; the caller's email becomes its owner (its token shown once)",
        parameters: [idempotencyKey],
        requestBody: body('ChannelCreate'),
        responses: { ...ok(one('ChannelCreated'), '201', 'Created'), ...errors(422) },
      },
    },
    '/channels/{key}': {
      parameters: [key],
      get: { operationId: 'getChannel', responses: { ...ok(one('Channel')), ...errors() } },
      patch: {
        operationId: 'updateChannel',
        summary: 'The name, and settings merged key by key (null removes one), checked as the settings are',
        parameters: [ifMatch],
        requestBody: body('ChannelPatch'),
        responses: { ...ok(one('Channel')), ...errors(409, 422) },
      },
    },
    '/channels/{key}/secrets': {
      parameters: [key],
      get: {
        operationId: 'getSecrets',
        summary: 'Which secrets are set and when (owner); never their values',
        responses: { ...ok(one('Secrets')), ...errors() },
      },
    },
    '/channels/{key}/operators': {
      parameters: [key],
      get: { operationId: 'listOperators', responses: { ...ok(list('Operator')), ...errors() } },
      post: {
        operationId: 'addOperator',
        summary: 'A new operator (owner), with a token shown once',
        parameters: [idempotencyKey],
        requestBody: body('OperatorCreate'),
        responses: { ...ok(one('OperatorCreated'), '201', 'Created'), ...errors(422) },
      },
    },
    '/channels/{key}/operators/{id}': {
      parameters: [key, idParam],
      delete: { operationId: 'removeOperator', responses: { ...noContent, ...errors(404, 409) } },
    },
    '/channels/{key}/operators/{id}/tokens': {
      parameters: [key, idParam],
      post: {
        operationId: 'issueToken',
        parameters: [idempotencyKey],
        requestBody: { required: false, content: content(ref('TokenCreate')) },
        responses: { ...ok(one('TokenIssued'), '201', 'Created'), ...errors(404) },
      },
    },
    '/channels/{key}/tokens/{id}': {
      parameters: [key, idParam],
      delete: { operationId: 'revokeToken', responses: { ...noContent, ...errors(404) } },
    },
    '/channels/{key}/export': {
      parameters: [key],
      get: {
        operationId: 'exportChannel',
        summary: 'The whole channel as a channel file (docs/operating.md): events in UTC, never secrets or accounts',
        responses: { ...ok(one('ChannelFile')), ...errors() },
      },
    },
    '/channels/{key}/audit': {
      parameters: [key],
      get: {
        operationId: 'listAudit',
        summary: 'Every change, newest first (owner)',
        parameters: page,
        responses: { ...ok(list('AuditEntry')), ...errors(422) },
      },
    },
  };
  for (const group of s.SECRET_GROUPS) {
    const name = `${pascal(group)}Secrets`;
    paths[`/channels/{key}/secrets/${group}`] = {
      parameters: [key],
      put: {
        operationId: `set${name}`,
        requestBody: body(name),
        responses: { ...ok(one('Secrets')), ...errors(422) },
      },
      delete: { operationId: `remove${name}`, responses: { ...ok(one('Secrets')), ...errors() } },
    };
  }
  schemas.ChannelFile = schemaOf(ChannelFile, 'output');
  for (const resource of s.RESOURCE_NAMES) {
    const { create, record } = s.RESOURCES[resource];
    const name = pascal(resource);
    schemas[`${name}Create`] = schemaOf(create, 'input');
    schemas[`${name}Patch`] = schemaOf((create as z.ZodObject).partial(), 'input');
    schemas[name] = schemaOf(record, 'output');
    paths[`/channels/{key}/${resource}`] = {
      parameters: [key],
      get: { operationId: `list${name}`, parameters: page, responses: { ...ok(list(name)), ...errors(422) } },
      post: {
        operationId: `create${name}`,
        parameters: [idempotencyKey],
        requestBody: body(`${name}Create`),
        responses: { ...ok(one(name), '201', 'Created'), ...errors(422) },
      },
    };
    paths[`/channels/{key}/${resource}/{id}`] = {
      parameters: [key, idParam],
      get: { operationId: `get${name}`, responses: { ...ok(one(name)), ...errors(404) } },
      patch: {
        operationId: `update${name}`,
        parameters: [ifMatch],
        requestBody: body(`${name}Patch`),
        responses: { ...ok(one(name)), ...errors(404, 409, 422) },
      },
      delete: {
        operationId: `delete${name}`,
        parameters: [ifMatch],
        responses: { ...noContent, ...errors(404, 409) },
      },
    };
  }
  paths['/channels/{key}/participants/{id}/logo'] = {
    parameters: [key, idParam],
    put: {
      operationId: 'uploadParticipantLogo',
      summary: "A participant's logo as an image body (PNG, JPEG, WebP or GIF, up to 2 MB), served at /media/uploads/",
      parameters: [ifMatch],
      requestBody: {
        required: true,
        content: Object.fromEntries(
          ['image/png', 'image/jpeg', 'image/webp', 'image/gif'].map((type) => [
            type,
            { schema: { type: 'string', contentMediaType: type } },
          ]),
        ),
      },
      responses: { ...ok(one('Participants')), ...errors(404, 409, 413, 415, 422) },
    },
  };
  paths['/channels/{key}/events/{id}/cancel'] = {
    parameters: [key, idParam],
    post: {
      operationId: 'cancelEvent',
      summary: 'The event leaves every list of the channel API; its record stays, status cancelled',
      parameters: [ifMatch],
      responses: { ...ok(one('Events')), ...errors(404, 409) },
    },
  };
  const ingestAnswer = {
    200: {
      description: "The event's RTMP URL and stream key (never cached: Cache-Control no-store)",
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['data'],
            properties: {
              data: {
                type: 'object',
                required: ['rtmp_url', 'stream_key'],
                properties: { rtmp_url: { type: 'string' }, stream_key: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
  paths['/channels/{key}/events/{id}/ingest'] = {
    parameters: [key, idParam],
    get: {
      operationId: 'eventStreamKey',
      summary: "An ingest event's RTMP URL and stream key (made on first ask); 409 for another source",
      responses: { ...ingestAnswer, ...errors(404, 409) },
    },
  };
  paths['/channels/{key}/events/{id}/ingest/rotate'] = {
    parameters: [key, idParam],
    post: {
      operationId: 'rotateEventStreamKey',
      summary: "A new stream key for an ingest event: the old one is refused at the encoder's next push",
      responses: { ...ingestAnswer, ...errors(404, 409) },
    },
  };
  paths['/channels/{key}/events/{id}/ingest/reset'] = {
    parameters: [key, idParam],
    post: {
      operationId: 'resetEventIngest',
      summary:
        "Clears an ingest event's pushes (an encoder's test before the game): upcoming again, its recording gone; 409 while on air",
      responses: { ...ok(one('Events')), ...errors(404, 409) },
    },
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Channel server operator API',
      version: '1',
      description:
        "A channel's catalogue, settings, secrets and operators. Authenticate with `Authorization: Bearer chop_…`; " +
        'see docs/operator-api.md.',
    },
    servers: [{ url: s.OPERATOR_API_BASE }],
    security: [{ operatorToken: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: { operatorToken: { type: 'http', scheme: 'bearer', description: 'An operator token, chop_…' } },
    },
  };
}
