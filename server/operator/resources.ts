/**
 * The catalogue's resources as the operator API sees them: each a table of the channel's (migrations.ts), its
 * fields, the fields that name another of the channel's records (checked: a 422 names the field otherwise) and its
 * link tables (a package's categories, a rail's items). One generic store reads, creates, changes and deletes them;
 * events have their own (events-admin.ts) on the same interface.
 */
import type * as z from 'zod';
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';
import { invalid, OperatorError } from './engine.js';
import { RESOURCES, type ResourceName, type StreamInput } from './schemas.js';
import { STREAM_COLUMNS, streamJson, streamValues } from './stream-columns.js';
import { SPECS, type Field, type TableSpec } from './tables.js';

export type Json = Record<string, unknown>;

/** What a resource's store does, inside the caller's transaction. */
export interface ResourceStore {
  name: ResourceName;
  /** The create body's schema; PATCH takes it partial. */
  create: z.ZodObject;
  patch: z.ZodObject;
  list(db: ChannelDb, channelId: number, offset: number, limit: number): Promise<{ total: number; data: Json[] }>;
  /** One record; `lock` holds its row until the transaction ends (a change's read). */
  get(db: ChannelDb, channelId: number, id: number, lock?: boolean): Promise<Json | undefined>;
  insert(db: ChannelDb, channelId: number, input: Json): Promise<number>;
  update(db: ChannelDb, channelId: number, id: number, input: Json, before: Json): Promise<void>;
  remove(db: ChannelDb, channelId: number, id: number): Promise<void>;
  /** The field a unique index holds (a second record with its value is refused naming it). */
  unique?: string;
  /** Problems of the record as it would be after a create or a change, by field (rules across fields). */
  check?(record: Json): Record<string, string>;
}

const columnOf = (f: Field) => f.column ?? f.field;
/** The columns a field reads and writes (a stream's are four). */
const columnsOf = (f: Field): readonly string[] => (f.kind === 'stream' ? STREAM_COLUMNS : [columnOf(f)]);

function valueOf(f: Field, raw: SqlValue | undefined): unknown {
  if (raw === null || raw === undefined) return f.kind === 'bool' ? false : null;
  if (f.kind === 'number') return Number(raw);
  if (f.kind === 'bool') return Number(raw) !== 0;
  if (f.kind === 'json') return JSON.parse(String(raw)) as unknown;
  return String(raw);
}

function stored(f: Field, value: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  if (f.kind === 'bool') return value ? 1 : 0;
  if (f.kind === 'json') return JSON.stringify(value);
  return value as SqlValue;
}

/**
 * Refuses (422) ids that name no record of this channel in `table`: each field or list entry by its path
 * (`participant_ids.1`).
 */
export async function checkRefs(
  db: ChannelDb,
  channelId: number,
  refs: Array<{ field: string; table: string; ids: unknown }>,
): Promise<void> {
  const errors = await refErrors(db, channelId, refs);
  if (Object.keys(errors).length) throw invalid(errors);
}

/** The problems checkRefs refuses, by field. */
export async function refErrors(
  db: ChannelDb,
  channelId: number,
  refs: Array<{ field: string; table: string; ids: unknown }>,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  for (const { field, table, ids } of refs) {
    if (ids === null || ids === undefined) continue;
    const list = Array.isArray(ids) ? (ids as number[]) : [ids as number];
    if (list.length === 0) continue;
    const rows = await db.all(`SELECT id FROM ${table} WHERE channel_id = ? AND id = ANY(?::bigint[])`, [
      channelId,
      list,
    ]);
    const found = new Set(rows.map((row) => Number(row.id)));
    list.forEach((id, index) => {
      if (!found.has(id))
        errors[Array.isArray(ids) ? `${field}.${index}` : field] =
          `names no ${table.replace(/_/g, ' ')} of this channel`;
    });
  }
  return errors;
}

function tableStore(spec: TableSpec): ResourceStore {
  const { table, fields, links = [], position } = spec;
  const schema = RESOURCES[spec.name].create as unknown as z.ZodObject;
  const columns = ['id', ...fields.flatMap(columnsOf), ...(position ? ['position'] : [])];

  async function toJson(db: ChannelDb, row: Row): Promise<Json> {
    const out: Json = { id: Number(row.id) };
    for (const f of fields) out[f.field] = f.kind === 'stream' ? streamJson(row) : valueOf(f, row[columnOf(f)]);
    for (const link of links) {
      const rows = await db.all(
        `SELECT ${link.other} AS id FROM ${link.table} WHERE ${link.own} = ? ORDER BY ${link.ordered ? 'position' : link.other}`,
        [row.id!],
      );
      out[link.field] = rows.map((r) => Number(r.id));
    }
    if (position) out.position = Number(row.position);
    return out;
  }

  const refsOf = (input: Json) => [
    ...fields
      .filter((f) => f.ref && f.field in input)
      .map((f) => ({ field: f.field, table: f.ref!, ids: input[f.field] })),
    ...links.filter((l) => l.field in input).map((l) => ({ field: l.field, table: l.ref, ids: input[l.field] })),
  ];

  /**
   * A tree's parent (a field naming a record of this same table: categories, participants, menu items) may be
   * neither the record itself nor one of its descendants: its ancestors are walked up from the new parent.
   */
  async function checkAncestry(db: ChannelDb, channelId: number, id: number, input: Json): Promise<void> {
    for (const f of fields.filter((f) => f.ref === table && typeof input[f.field] === 'number')) {
      const seen = new Set<number>();
      for (let at: number | null = input[f.field] as number; at !== null && !seen.has(at);) {
        if (at === id) throw invalid({ [f.field]: `would make this record its own ancestor (a loop in the tree)` });
        seen.add(at);
        const row = await db.get(`SELECT ${columnOf(f)} AS up FROM ${table} WHERE channel_id = ? AND id = ?`, [
          channelId,
          at,
        ]);
        at = row?.up === null || row?.up === undefined ? null : Number(row.up);
      }
    }
  }

  async function writeLinks(db: ChannelDb, id: number, input: Json): Promise<void> {
    for (const link of links) {
      const ids = input[link.field] as number[] | undefined;
      if (ids === undefined) continue;
      await db.run(`DELETE FROM ${link.table} WHERE ${link.own} = ?`, [id]);
      for (const [index, other] of [...new Set(ids)].entries())
        await db.run(
          link.ordered
            ? `INSERT INTO ${link.table} (${link.own}, position, ${link.other}) VALUES (?, ?, ?)`
            : `INSERT INTO ${link.table} (${link.own}, ${link.other}) VALUES (?, ?) ON CONFLICT DO NOTHING`,
          link.ordered ? [id, index, other] : [id, other],
        );
    }
  }

  return {
    name: spec.name,
    unique: spec.unique,
    check: spec.check,
    create: schema,
    patch: schema.partial(),
    async list(db, channelId, offset, limit) {
      const total = Number((await db.get(`SELECT count(*) AS n FROM ${table} WHERE channel_id = ?`, [channelId]))!.n);
      const rows = await db.all(
        `SELECT ${columns.join(', ')} FROM ${table} WHERE channel_id = ? ORDER BY ${position ? 'position, id' : 'id'} LIMIT ? OFFSET ?`,
        [channelId, limit, offset],
      );
      const data: Json[] = [];
      for (const row of rows) data.push(await toJson(db, row));
      return { total, data };
    },
    async get(db, channelId, id, lock = false) {
      const row = await db.get(
        `SELECT ${columns.join(', ')} FROM ${table} WHERE channel_id = ? AND id = ?${lock ? ' FOR UPDATE' : ''}`,
        [channelId, id],
      );
      return row ? toJson(db, row) : undefined;
    },
    async insert(db, channelId, input) {
      await checkRefs(db, channelId, [...refsOf(input), ...(spec.refsOf?.(input) ?? [])]);
      const names = ['channel_id'];
      const values: SqlValue[] = [channelId];
      for (const f of fields) {
        const value = input[f.field];
        if (f.kind === 'stream') {
          names.push(...STREAM_COLUMNS);
          values.push(...streamValues(value as StreamInput | undefined));
          continue;
        }
        if (value === undefined && f.fallback === undefined) continue;
        names.push(columnOf(f));
        values.push(value === undefined ? f.fallback! : stored(f, value));
      }
      if (position) {
        names.push('position');
        const last = await db.get(`SELECT coalesce(max(position) + 1, 0) AS p FROM ${table} WHERE channel_id = ?`, [
          channelId,
        ]);
        values.push((input.position as number | undefined) ?? Number(last!.p));
      }
      const id = await db.insert(
        `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        values,
      );
      await writeLinks(db, id, input);
      return id;
    },
    async update(db, channelId, id, input, before) {
      await checkRefs(db, channelId, [...refsOf(input), ...(spec.refsOf?.({ ...before, ...input }) ?? [])]);
      await checkAncestry(db, channelId, id, input);
      const sets: string[] = [];
      const values: SqlValue[] = [];
      for (const f of fields) {
        if (!(f.field in input)) continue;
        if (f.kind === 'stream') {
          sets.push(...STREAM_COLUMNS.map((column) => `${column} = ?`));
          values.push(...streamValues(input[f.field] as StreamInput | undefined));
          continue;
        }
        sets.push(`${columnOf(f)} = ?`);
        values.push(stored(f, input[f.field]) ?? (f.fallback !== undefined ? f.fallback : null));
      }
      if (position && input.position !== undefined) {
        sets.push('position = ?');
        values.push(input.position as number);
      }
      if (sets.length)
        await db.run(`UPDATE ${table} SET ${sets.join(', ')} WHERE channel_id = ? AND id = ?`, [
          ...values,
          channelId,
          id,
        ]);
      await writeLinks(db, id, input);
    },
    async remove(db, channelId, id) {
      for (const use of spec.usedBy ?? []) {
        const [other, column] = use.split('.') as [string, string];
        if (await db.get(`SELECT 1 AS one FROM ${other} WHERE ${column} = ? LIMIT 1`, [id]))
          throw new OperatorError(
            409,
            'conflict',
            `Other records still name this one (${other.replace(/_/g, ' ')}): change or remove them first.`,
          );
      }
      if (spec.name === 'packages' || spec.name === 'subscriptions') {
        const type = spec.name === 'packages' ? 'package' : 'subscription';
        if (await db.get('SELECT 1 AS one FROM orders WHERE type = ? AND product_id = ? LIMIT 1', [type, id]))
          throw new OperatorError(409, 'conflict', 'Orders name this product: it cannot be removed.');
      }
      for (const link of links) await db.run(`DELETE FROM ${link.table} WHERE ${link.own} = ?`, [id]);
      await db.run(`DELETE FROM ${table} WHERE channel_id = ? AND id = ?`, [channelId, id]);
    },
  };
}

/** The generic stores, by resource name (events are events-admin.ts's). */
export const TABLE_STORES: Partial<Record<ResourceName, ResourceStore>> = Object.fromEntries(
  SPECS.map((spec) => [spec.name, tableStore(spec)]),
);
