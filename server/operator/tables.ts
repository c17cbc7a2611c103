/**
 * The catalogue's tables as the operator API's generic store (resources.ts) reads and writes them: each resource's
 * table, its fields (and their columns and kinds), the fields naming another record of the channel's, its link
 * tables, the unique field, the rules across fields and where other records name one.
 */
import type { SqlValue } from '../storage/db.js';
import type { ResourceName } from './schemas.js';

/** A record as JSON. */
type Json = Record<string, unknown>;

/** `stream`: the four STREAM_COLUMNS (stream-columns.ts) as one `stream` object. */
export type Kind = 'text' | 'number' | 'bool' | 'json' | 'stream';

export interface Field {
  field: string;
  column?: string;
  kind: Kind;
  /** A record of the channel this field names (by id), in that table. */
  ref?: string;
  /** Stored when a create leaves the field out. */
  fallback?: SqlValue;
}

export interface Link {
  field: string;
  table: string;
  own: string;
  other: string;
  /** Ordered links keep a position column. */
  ordered?: boolean;
  ref: string;
}

export interface TableSpec {
  name: ResourceName;
  table: string;
  fields: Field[];
  links?: Link[];
  position?: boolean;
  unique?: string;
  check?(record: Json): Record<string, string>;
  /** Where other records name one (table.column): a removal is refused while any does. */
  usedBy?: string[];
  /**
   * Fields naming a record in a table another field chooses (a slide's slidable_id, by its slidable_type), from the
   * record as it would be: checked as `ref` fields are.
   */
  refsOf?(record: Json): Array<{ field: string; table: string; ids: unknown }>;
}

/**
 * What a slide may be about, and the table its slidable_id names (the elements read them: src/stores/site/home.ts):
 * `main` (or none) is the home page's, about nothing.
 */
export const SLIDABLE: Record<string, string | undefined> = {
  main: undefined,
  category: 'categories',
  participant: 'participants',
  group: 'participant_groups',
};

const t = (field: string, extra: Partial<Field> = {}): Field => ({ field, kind: 'text', ...extra });
const n = (field: string, extra: Partial<Field> = {}): Field => ({ field, kind: 'number', ...extra });
const b = (field: string): Field => ({ field, kind: 'bool', fallback: 0 });
const j = (field: string, column: string, fallback: string): Field => ({ field, column, kind: 'json', fallback });

export const SPECS: TableSpec[] = [
  {
    name: 'categories',
    table: 'categories',
    usedBy: [
      'events.category_id',
      'categories.parent_id',
      'package_categories.category_id',
      'preroll_categories.category_id',
      'vod_items.category_id',
    ],
    position: true,
    fields: [t('name'), n('parent_id', { ref: 'categories' }), t('alias'), t('sport'), t('gender')],
  },
  {
    name: 'participant-groups',
    table: 'participant_groups',
    usedBy: ['participants.group_id'],
    fields: [t('name'), t('alias'), t('image'), j('properties', 'properties_json', '{}')],
  },
  {
    name: 'participants',
    table: 'participants',
    usedBy: [
      'event_participants.participant_id',
      'events.home_team_id',
      'package_participants.participant_id',
      'participants.parent_id',
    ],
    fields: [
      t('name'),
      n('group_id', { ref: 'participant_groups' }),
      n('parent_id', { ref: 'participants' }),
      t('short_name'),
      t('alias'),
      t('logo'),
      t('color'),
      t('gender'),
      t('sport'),
    ],
  },
  {
    name: 'locations',
    table: 'locations',
    usedBy: ['events.location_id', 'prerolls.location_id'],
    fields: [t('name'), t('city'), t('state'), t('time_zone')],
  },
  {
    name: 'packages',
    table: 'packages',
    usedBy: ['events.single_event_package_id'],
    position: true,
    fields: [
      t('name'),
      t('type'),
      n('price'),
      n('base_price'),
      n('service_fee'),
      b('is_team_pass'),
      n('weight', { fallback: 0 }),
      t('offer'),
      t('period'),
      t('description'),
      t('processor_price'),
    ],
    links: [
      {
        field: 'category_ids',
        table: 'package_categories',
        own: 'package_id',
        other: 'category_id',
        ref: 'categories',
      },
      {
        field: 'participant_ids',
        table: 'package_participants',
        own: 'package_id',
        other: 'participant_id',
        ref: 'participants',
      },
    ],
  },
  {
    name: 'subscriptions',
    table: 'subscriptions',
    position: true,
    fields: [
      t('name'),
      t('offer'),
      t('period'),
      n('price'),
      n('base_price'),
      n('service_fee'),
      n('trial_period'),
      n('weight', { fallback: 0 }),
      t('description'),
      t('processor_price'),
    ],
  },
  {
    name: 'coupons',
    table: 'coupons',
    unique: 'code',
    fields: [t('code'), n('percent'), n('amount')],
    check: (coupon): Record<string, string> =>
      ((coupon.percent ?? null) === null) === ((coupon.amount ?? null) === null)
        ? { percent: 'give exactly one of percent and amount', amount: 'give exactly one of percent and amount' }
        : {},
  },
  {
    name: 'prerolls',
    table: 'prerolls',
    position: true,
    fields: [
      t('name'),
      t('media'),
      n('weight', { fallback: 1 }),
      n('location_id', { ref: 'locations' }),
      b('for_vod'),
      b('for_live'),
    ],
    links: [
      {
        field: 'category_ids',
        table: 'preroll_categories',
        own: 'preroll_id',
        other: 'category_id',
        ref: 'categories',
      },
    ],
  },
  {
    name: 'library-categories',
    table: 'vod_categories',
    position: true,
    usedBy: ['vod_items.vod_category_id'],
    fields: [t('name'), t('alias')],
  },
  {
    name: 'library-items',
    table: 'vod_items',
    usedBy: ['vod_rail_items.item_id'],
    position: true,
    fields: [
      t('title'),
      t('date'),
      t('type'),
      n('category_id', { ref: 'categories' }),
      n('vod_category_id', { ref: 'vod_categories' }),
      n('duration'),
      t('asset'),
      t('description'),
      { field: 'stream', kind: 'stream' },
    ],
  },
  {
    name: 'library-rails',
    table: 'vod_rails',
    position: true,
    fields: [t('title')],
    links: [
      {
        field: 'item_ids',
        table: 'vod_rail_items',
        own: 'rail_id',
        other: 'item_id',
        ordered: true,
        ref: 'vod_items',
      },
    ],
  },
  {
    name: 'pages',
    table: 'pages',
    position: true,
    unique: 'alias',
    fields: [t('name'), t('alt_name'), t('url'), t('alias'), j('blocks', 'blocks_json', '[]')],
  },
  {
    name: 'menu',
    table: 'menu',
    usedBy: ['menu.parent_id'],
    position: true,
    fields: [
      t('name'),
      n('parent_id', { ref: 'menu' }),
      t('alias'),
      t('url'),
      t('custom_icon'),
      t('type', { fallback: 'link' }),
    ],
  },
  {
    name: 'slides',
    table: 'slides',
    position: true,
    fields: [t('title'), t('image'), t('link'), t('slidable_type'), n('slidable_id')],
    check: (slide): Record<string, string> => {
      const type = (slide.slidable_type as string | null | undefined) ?? 'main';
      const about = (slide.slidable_id ?? null) !== null;
      if (type === 'main' && about)
        return { slidable_id: 'must be empty for a main slide (slidable_type main or none)' };
      if (type !== 'main' && !about) return { slidable_id: `is needed for a ${type} slide: the ${type}'s id` };
      return {};
    },
    refsOf: (slide) => {
      const table = SLIDABLE[(slide.slidable_type as string | null | undefined) ?? 'main'];
      return table ? [{ field: 'slidable_id', table, ids: slide.slidable_id }] : [];
    },
  },
  { name: 'faq', table: 'faq', position: true, fields: [t('question'), t('answer')] },
  { name: 'forms', table: 'custom_forms', fields: [t('alias'), t('name'), j('fields', 'fields_json', '[]')] },
];
