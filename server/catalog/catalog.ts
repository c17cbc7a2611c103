/**
 * What a channel sells and shows besides events: packages, subscriptions and prerolls, mapped from their rows to the
 * contract's shapes (src/api/contract.ts: Package, Subscription, Preroll). Library items are library-api.ts.
 */
import type { ChannelDb, Row, SqlValue } from '../storage/db.js';

const num = (v: SqlValue | undefined) => (v === null || v === undefined ? null : Number(v));
const text = (v: SqlValue | undefined) => (v === null || v === undefined ? null : String(v));
/** The ids of a link table's second column for one owner, in order. */
const linked = async (db: ChannelDb, table: string, owner: string, column: string, id: SqlValue) =>
  (await db.all(`SELECT ${column} AS id FROM ${table} WHERE ${owner} = ? ORDER BY ${column}`, [id])).map((r) =>
    Number(r.id),
  );

/** What packages and subscriptions share: identity and price. */
const offer = (row: Row) => ({
  id: Number(row.id),
  name: String(row.name),
  price: Number(row.price),
  base_price: num(row.base_price),
  service_fee: num(row.service_fee),
  weight: Number(row.weight),
  description: text(row.description),
});

export async function packageJson(db: ChannelDb, row: Row): Promise<Record<string, unknown>> {
  return {
    ...offer(row),
    // Stored with subcategories, as clients match an event's own category id.
    event_categories: await linked(db, 'package_categories', 'package_id', 'category_id', row.id!),
    participants: await linked(db, 'package_participants', 'package_id', 'participant_id', row.id!),
    is_team_pass: Boolean(row.is_team_pass),
    type: String(row.type),
    offer: text(row.offer),
    period: text(row.period),
  };
}

export function subscriptionJson(row: Row): Record<string, unknown> {
  return { ...offer(row), offer: String(row.offer), period: text(row.period), trial_period: num(row.trial_period) };
}

/** Where a preroll's media plays from: public (never signed), on this server's origin. */
export const prerollUrl = (origin: string, id: number) => `${origin}/media/prerolls/${id}/master.m3u8`;

export async function prerollJson(db: ChannelDb, row: Row, origin: string): Promise<Record<string, unknown>> {
  return {
    id: Number(row.id),
    name: String(row.name),
    url: prerollUrl(origin, Number(row.id)),
    weight: Number(row.weight),
    location_id: num(row.location_id),
    event_categories: await linked(db, 'preroll_categories', 'preroll_id', 'category_id', row.id!),
    for_vod: Boolean(row.for_vod),
    for_live: Boolean(row.for_live),
  };
}
