/* eslint-disable max-lines -- the schema is one ordered list of migrations that never change once shipped */
/**
 * The schema, as an ordered list of migrations: each runs once per database, in order, in the start-up transaction
 * (db.ts). Never edit a migration that has shipped; add the next one. Every id is an identity column, so no id is
 * ever handed out twice, even after its row is deleted.
 *
 * Times are integers: `*_at` columns in UNIX seconds unless the comment says ms (the server clock, which tests move).
 * Flags are 0/1 integers. Money is double precision, as the API sends it.
 */

/** Migration 1: the channel server's schema when it moved to PostgreSQL. */
const SCHEMA = `
CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE channels (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_key text NOT NULL UNIQUE, name text NOT NULL);
-- last_used_at is written at most once an hour per key (maintenance.ts prunes keys nobody uses).
CREATE TABLE api_keys (
  api_key text PRIMARY KEY, channel_id bigint NOT NULL REFERENCES channels(id), created_at bigint NOT NULL,
  last_used_at bigint NOT NULL);
CREATE INDEX api_keys_last_used ON api_keys (last_used_at);
-- fixture_json keeps the seeded settings, so DELETE /__dev/settings can undo what a test changed.
CREATE TABLE settings (
  channel_id bigint PRIMARY KEY REFERENCES channels(id), json text NOT NULL, fixture_json text NOT NULL);
CREATE TABLE colors (
  channel_id bigint NOT NULL REFERENCES channels(id), name text NOT NULL, value text NOT NULL,
  PRIMARY KEY (channel_id, name));
CREATE TABLE menu (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, parent_id bigint,
  position integer NOT NULL, name text NOT NULL, alias text, url text, custom_icon text,
  type text NOT NULL DEFAULT 'link');
CREATE TABLE pages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  name text NOT NULL, alt_name text, url text NOT NULL, alias text NOT NULL, blocks_json text NOT NULL);
CREATE UNIQUE INDEX pages_alias ON pages (channel_id, alias);
CREATE TABLE categories (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, parent_id bigint,
  position integer NOT NULL, name text NOT NULL, alias text, sport text, gender text);
CREATE TABLE participant_groups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, name text NOT NULL, alias text,
  image text, properties_json text NOT NULL DEFAULT '{}');
-- parent_id: a team's own teams are its children (a club's squads); filters, favourites and team passes of a
-- team include them.
CREATE TABLE participants (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, group_id bigint, parent_id bigint,
  name text NOT NULL, short_name text, alias text, logo text, color text, gender text, sport text);
CREATE TABLE locations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, name text NOT NULL, city text,
  state text, time_zone text);
CREATE TABLE events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, key text, name text NOT NULL,
  type text NOT NULL,
  start_offset bigint NOT NULL, -- seconds from the server's start (the anchor), so live events stay live
  duration bigint NOT NULL, time_zone text, home_team_id bigint, location_id bigint, category_id bigint,
  image text, description text, price double precision,
  single_event_package_id bigint, -- the single-event package that sells it (paid and ppv events)
  has_recording integer NOT NULL DEFAULT 1, is_geo_blocked integer NOT NULL DEFAULT 0);
CREATE INDEX events_channel_start ON events (channel_id, start_offset);
CREATE UNIQUE INDEX events_key ON events (channel_id, key) WHERE key IS NOT NULL; -- fixture keys, for tests
-- The fixture schedule of events moved by POST /__dev/events/{id}/start-in, for .../reset.
CREATE TABLE event_reschedules (event_id bigint PRIMARY KEY, start_offset bigint NOT NULL, duration bigint NOT NULL);
CREATE TABLE event_participants (
  event_id bigint NOT NULL, participant_id bigint NOT NULL, position integer NOT NULL,
  PRIMARY KEY (event_id, position));
CREATE INDEX event_participants_participant ON event_participants (participant_id);
CREATE TABLE faq (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  question text NOT NULL, answer text NOT NULL);
CREATE TABLE slides (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  title text, image text, link text, slidable_type text, slidable_id bigint);
CREATE TABLE custom_forms (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, alias text NOT NULL,
  name text NOT NULL, fields_json text NOT NULL);
-- Filled-in custom forms (the contacts form): the values by field name, who sent them (user, if signed in) and when.
CREATE TABLE form_submissions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, form_alias text NOT NULL,
  values_json text NOT NULL, user_id bigint, ip text NOT NULL, created_at bigint NOT NULL);
CREATE INDEX form_submissions_channel ON form_submissions (channel_id, created_at);
-- Accounts. Emails are unique per channel whatever their case; password_hash is 'scrypt$N$r$p$salt$hash'
-- (base64), null for accounts that only sign in socially. Capabilities are a JSON array of flags. provider is
-- 'email' or the social provider that created the account; email_verified_at stays null until the emailed link
-- is followed.
CREATE TABLE users (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL REFERENCES channels(id),
  email text NOT NULL, password_hash text, first_name text, last_name text, gender text CHECK (gender IN ('M', 'W')),
  capabilities_json text NOT NULL DEFAULT '[]', temporary_password integer NOT NULL DEFAULT 0,
  trial_period_used integer NOT NULL DEFAULT 0, is_geo_blocked integer NOT NULL DEFAULT 0,
  clips_count integer NOT NULL DEFAULT 0, downloads_count integer NOT NULL DEFAULT 0,
  news integer NOT NULL DEFAULT 0, provider text NOT NULL DEFAULT 'email',
  email_verified_at bigint, created_at bigint NOT NULL, updated_at bigint NOT NULL);
CREATE UNIQUE INDEX users_email ON users (channel_id, lower(email));
-- The earliest moment (ms) a payment of the user falls due (a purchase settling, an auto-renewal's cancellation
-- finishing, a subscription period ending), kept by the orders' trigger below: a signed-in request reads it with the
-- user and settles only when it has come (settlement.ts).
ALTER TABLE users ADD COLUMN payment_due_at bigint;
-- Bearer tokens, stored as the SHA-256 (hex) of the token: the database never holds a usable token.
-- A token ends at expires_at, which each use pushes out (accounts.ts, TOKEN_TTL).
CREATE TABLE tokens (
  id bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  token_hash text PRIMARY KEY, user_id bigint NOT NULL REFERENCES users(id),
  created_at bigint NOT NULL, last_used_at bigint, expires_at bigint NOT NULL);
CREATE INDEX tokens_user ON tokens (user_id, id);
CREATE INDEX tokens_expiry ON tokens (expires_at);
-- Packages: type 'single' (one event: events.single_event_package_id) or 'category' (the events of some
-- categories, their subcategories included); a team pass is a category package bought for one of its teams.
CREATE TABLE packages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  name text NOT NULL, type text NOT NULL CHECK (type IN ('single', 'category')),
  is_team_pass integer NOT NULL DEFAULT 0, price double precision NOT NULL, base_price double precision,
  service_fee double precision, weight integer NOT NULL DEFAULT 0, offer text, period text, description text);
CREATE TABLE package_categories (
  package_id bigint NOT NULL, category_id bigint NOT NULL, PRIMARY KEY (package_id, category_id));
CREATE TABLE package_participants (
  package_id bigint NOT NULL, participant_id bigint NOT NULL, PRIMARY KEY (package_id, participant_id));
CREATE TABLE subscriptions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  name text NOT NULL, offer text NOT NULL, period text, price double precision NOT NULL,
  base_price double precision, service_fee double precision, trial_period integer,
  weight integer NOT NULL DEFAULT 0, description text);
-- Orders: product_id is an event, package or subscription id by type; participant_id is the team of a team pass.
-- Access comes from orders with status 'paid' and activity_status 'active' (and expires_at, when set, ahead).
-- Subscriptions also carry their own state (subscription_status) and auto_renewal ('active' or 'cancelled').
-- Purchases (payments.ts) add: the client's idempotency_key (one order per key and user), the payment_method
-- charged, the coupon, save_card, settles_at (server clock, ms: the order is pending until then, when the card's
-- outcome settles it, as a payment webhook would), renewal_cancel_at (ms: an auto-renewal cancellation in progress)
-- and is_trial; partner is the slug of the partner the sale is attributed to (the page's data-partner or trk).
CREATE TABLE orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL,
  user_id bigint NOT NULL REFERENCES users(id),
  type text NOT NULL CHECK (type IN ('event', 'package', 'subscription')), product_id bigint NOT NULL,
  participant_id bigint, status text NOT NULL, activity_status text NOT NULL, price double precision, currency text,
  reference text, subscription_status text, auto_renewal text CHECK (auto_renewal IN ('active', 'cancelled')),
  error text, created_at bigint NOT NULL, updated_at bigint NOT NULL, expires_at bigint,
  idempotency_key text, payment_method text, coupon text, save_card integer NOT NULL DEFAULT 0, settles_at bigint,
  renewal_cancel_at bigint, is_trial integer NOT NULL DEFAULT 0, partner text);
CREATE INDEX orders_user ON orders (user_id, status, activity_status);
CREATE INDEX orders_partner ON orders (channel_id, partner);
CREATE UNIQUE INDEX orders_idempotency ON orders (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX orders_pending ON orders (settles_at) WHERE settles_at IS NOT NULL;
CREATE INDEX orders_renewal_cancel ON orders (renewal_cancel_at) WHERE renewal_cancel_at IS NOT NULL;
CREATE INDEX orders_subscription_end ON orders (expires_at)
  WHERE type = 'subscription' AND status = 'paid' AND activity_status = 'active';
-- At most one order of a product per user is being paid at once (created, not yet settled) and at most one is paid
-- and active: two purchases at once, in one process or two, cannot both charge.
CREATE UNIQUE INDEX orders_one_pending ON orders (user_id, type, product_id, coalesce(participant_id, 0))
  WHERE status = 'created' AND settles_at IS NOT NULL;
CREATE FUNCTION orders_payment_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET payment_due_at = (
    SELECT min(least(o.settles_at, o.renewal_cancel_at,
      CASE WHEN o.type = 'subscription' AND o.status = 'paid' AND o.activity_status = 'active'
        AND o.renewal_cancel_at IS NULL THEN o.expires_at * 1000 END))
    FROM orders o WHERE o.user_id = NEW.user_id)
  WHERE id = NEW.user_id;
  RETURN NULL;
END $$;
CREATE TRIGGER orders_payment_due AFTER INSERT OR UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION orders_payment_due();
-- Promo codes per channel (apply_coupon): a percentage or a fixed amount off the price before fees.
CREATE TABLE coupons (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, code text NOT NULL,
  percent double precision, amount double precision, CHECK ((percent IS NULL) <> (amount IS NULL)));
CREATE UNIQUE INDEX coupons_code ON coupons (channel_id, upper(code));
-- The fake Stripe (dev/stripe.ts). Payment methods made by the test double: never the card number, only what a
-- charge needs (the test card's outcome), what a list shows, and a keyed fingerprint to spot the same card saved
-- twice. user_id: the customer it is attached to (saved: listed by stripe/list-cards); used: an unattached one was
-- spent on an order, and like at Stripe cannot be charged again.
CREATE TABLE payment_methods (
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id text PRIMARY KEY, channel_id bigint NOT NULL, brand text NOT NULL, last4 text NOT NULL,
  exp_month integer NOT NULL, exp_year integer NOT NULL, fingerprint text NOT NULL, outcome text NOT NULL,
  user_id bigint, saved integer NOT NULL DEFAULT 0, used integer NOT NULL DEFAULT 0, created_at bigint NOT NULL);
CREATE INDEX payment_methods_user ON payment_methods (user_id, saved);
-- Setup intents (trials): the client secret is kept only as its SHA-256.
CREATE TABLE setup_intents (
  id text PRIMARY KEY, channel_id bigint NOT NULL, user_id bigint NOT NULL, secret_hash text NOT NULL,
  status text NOT NULL, payment_method text, created_at bigint NOT NULL);
-- Customer portal sessions (/__stripe/portal/{id}): the id's SHA-256, whose page, where "Return" goes.
CREATE TABLE portal_sessions (
  id_hash text PRIMARY KEY, channel_id bigint NOT NULL, user_id bigint NOT NULL, return_url text NOT NULL,
  expires_at bigint NOT NULL);
-- Payment transactions of orders; label names subscription charges ('New subscription', 'Subscription Renewal').
CREATE TABLE transactions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders(id),
  user_id bigint NOT NULL, status text NOT NULL, amount double precision NOT NULL, currency text, label text,
  created_at bigint NOT NULL);
CREATE INDEX transactions_user ON transactions (user_id);
CREATE INDEX transactions_order ON transactions (order_id);
-- Clips users cut from events (clips.ts; the job queue is clip-jobs.ts). start_time is seconds into the recording
-- (source 'vod') or since the event's scheduled start (source 'live'); asset_offset is where the cut starts in
-- the test recording (main.mp4, looped for live clips). progress 0-100 while queued or processing; error says
-- why a job failed (never sent to clients). The files are {clips folder}/{id}/ once done. A job is held by one
-- process at a time: lease_owner until lease_until (ms), renewed while it runs; a lease that ran out is taken over.
CREATE TABLE clips (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id bigint NOT NULL, event_id bigint NOT NULL,
  uuid text NOT NULL, name text NOT NULL, start_time double precision NOT NULL, duration double precision NOT NULL,
  tags_json text NOT NULL DEFAULT '[]',
  status text NOT NULL CHECK (status IN ('queued', 'processing', 'done', 'failed')),
  progress integer NOT NULL DEFAULT 0, source text NOT NULL CHECK (source IN ('vod', 'live')),
  asset_offset double precision NOT NULL, error text, created_at bigint NOT NULL, updated_at bigint NOT NULL,
  lease_owner text, lease_until bigint, attempts integer NOT NULL DEFAULT 0);
CREATE INDEX clips_user ON clips (user_id, created_at);
CREATE INDEX clips_event ON clips (event_id);
CREATE INDEX clips_unfinished ON clips (id) WHERE status IN ('queued', 'processing');
-- Favourites chosen by a user: a team (participant), a school (group) or a sport (category).
CREATE TABLE favourites (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id bigint NOT NULL,
  favoritable_type text NOT NULL CHECK (favoritable_type IN ('participant', 'group', 'category')),
  favoritable_id bigint NOT NULL, created_at bigint NOT NULL, UNIQUE (user_id, favoritable_type, favoritable_id));
-- One-time emailed links (password reset, account deletion): only the token's SHA-256; a new link replaces the last.
CREATE TABLE user_links (
  user_id bigint NOT NULL, purpose text NOT NULL CHECK (purpose IN ('reset', 'delete')), token_hash text NOT NULL,
  expires_at bigint NOT NULL, PRIMARY KEY (user_id, purpose));
-- Codes issued by the social stand-in pages (/__social/...): one-time, short-lived, bound to their redirect_uri.
CREATE TABLE social_codes (
  code_hash text PRIMARY KEY, channel_id bigint NOT NULL, provider text NOT NULL, email text NOT NULL,
  first_name text, last_name text, redirect_uri text NOT NULL, expires_at bigint NOT NULL);
-- Device linking: a TV shows its code; a signed-in viewer links it (user_id). Only the api key that asked for the code
-- (its SHA-256 here) may poll it and receive the TV's token, once (token_issued).
CREATE TABLE device_codes (
  code text PRIMARY KEY, channel_id bigint NOT NULL, api_key_hash text NOT NULL, expires_at bigint NOT NULL,
  user_id bigint, linked_at bigint, token_issued integer NOT NULL DEFAULT 0);
-- Every email the server "sends" (GET /__dev/outbox): nothing leaves the machine.
CREATE TABLE outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, to_email text NOT NULL,
  subject text NOT NULL, text text NOT NULL, links_json text NOT NULL, sent_at bigint NOT NULL);
-- Prerolls play media generated by media.ts ('bars', 'zoom'); no categories means every category.
CREATE TABLE prerolls (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  name text NOT NULL, media text NOT NULL, weight integer NOT NULL DEFAULT 1, location_id bigint,
  for_vod integer NOT NULL DEFAULT 0, for_live integer NOT NULL DEFAULT 0);
CREATE TABLE preroll_categories (
  preroll_id bigint NOT NULL, category_id bigint NOT NULL, PRIMARY KEY (preroll_id, category_id));
-- The video-on-demand library (library-seed.ts, library-api.ts): categories of its own, items, and rails (titled,
-- ordered rows of items). An item's category_id is the sport (an event category), vod_category_id its library
-- category; asset names its generated image and preview (library-media.ts); duration null means the length of the
-- test recording it plays. date is YYYY-MM-DD.
CREATE TABLE vod_categories (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  name text NOT NULL, alias text);
CREATE TABLE vod_items (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  title text NOT NULL, date text, type text NOT NULL CHECK (type IN ('free', 'register', 'paid')),
  category_id bigint, vod_category_id bigint REFERENCES vod_categories(id), duration integer, asset text,
  description text);
CREATE INDEX vod_items_channel_date ON vod_items (channel_id, date);
CREATE TABLE vod_rails (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, position integer NOT NULL,
  title text NOT NULL);
CREATE TABLE vod_rail_items (
  rail_id bigint NOT NULL, position integer NOT NULL, item_id bigint NOT NULL, PRIMARY KEY (rail_id, position));
-- Client log entries (POST /api/logs): bounded in size, count and age (maintenance.ts).
CREATE TABLE logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint, received_at bigint NOT NULL, ip text,
  entry_json text NOT NULL);
CREATE INDEX logs_received ON logs (received_at);
CREATE INDEX logs_channel ON logs (channel_id, id);
-- Shared rate limits (limits.ts): a fixed window's count per limit and client address, the same for every
-- process. Unlogged: a crash may forget the current windows' counts, which only lets a client start afresh.
CREATE UNLOGGED TABLE rate_windows (
  bucket text NOT NULL, key text NOT NULL, window_start bigint NOT NULL, count integer NOT NULL,
  PRIMARY KEY (bucket, key));
CREATE INDEX rate_windows_start ON rate_windows (window_start);
-- Attempts counted in a sliding window (limits.ts): sign-in failures per address and per account, registrations
-- per address. at is UNIX seconds.
CREATE TABLE attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, bucket text NOT NULL, key text NOT NULL, at bigint NOT NULL);
CREATE INDEX attempts_key ON attempts (bucket, key, at);
CREATE INDEX attempts_at ON attempts (at);
-- What the channel's analytics service received (analytics-store.ts): at is ms; bytes the body's size; address
-- the sender's (its quota). Expired by age, in batches.
CREATE TABLE analytics (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel text NOT NULL, at bigint NOT NULL, kind text NOT NULL,
  origin text, address text NOT NULL, bytes integer NOT NULL, body text NOT NULL);
CREATE INDEX analytics_channel ON analytics (channel, at);
CREATE INDEX analytics_at ON analytics (at);
CREATE INDEX analytics_address ON analytics (channel, address, at);
`;

/**
 * Migration: clip jobs keep time by the database's clock (ms since the epoch, `clock_timestamp()`), so processes on
 * hosts whose clocks differ agree on when a lease ran out and when a clip is late. requested_at is when the clip was
 * asked for (its time limit counts from it); lease_until is on the same clock.
 */
const CLIP_DATABASE_CLOCK = `
ALTER TABLE clips ADD COLUMN requested_at bigint;
UPDATE clips SET requested_at = created_at * 1000;
ALTER TABLE clips ALTER COLUMN requested_at SET DEFAULT (extract(epoch from clock_timestamp()) * 1000)::bigint;
ALTER TABLE clips ALTER COLUMN requested_at SET NOT NULL;
`;

/**
 * Running totals of the analytics records (analytics-store.ts), so that accepting one reads two rows and never the
 * channel's history: per channel, what it holds (the insert adds, the age pruning subtracts what it deleted); per
 * channel, sender and clock hour (`hour` = at / 3,600,000), what that sender added in that hour (its quota; rows of
 * past hours no longer count and the pruning deletes them). A database that has records gets their totals here,
 * and its senders' counts for the last hour.
 */
const ANALYTICS_TOTALS = `
CREATE TABLE analytics_totals (channel text PRIMARY KEY, records bigint NOT NULL, bytes bigint NOT NULL);
CREATE TABLE analytics_senders (
  channel text NOT NULL, address text NOT NULL, hour bigint NOT NULL, records bigint NOT NULL, bytes bigint NOT NULL,
  PRIMARY KEY (channel, address, hour));
CREATE INDEX analytics_senders_hour ON analytics_senders (hour);
INSERT INTO analytics_totals (channel, records, bytes)
  SELECT channel, count(*), coalesce(sum(bytes), 0) FROM analytics GROUP BY channel;
INSERT INTO analytics_senders (channel, address, hour, records, bytes)
  SELECT channel, address, at / 3600000, count(*), coalesce(sum(bytes), 0) FROM analytics
  WHERE at >= (extract(epoch FROM clock_timestamp()) * 1000)::bigint - 3600000
  GROUP BY channel, address, at / 3600000;
-- A sender's records were counted through this index; its row in analytics_senders counts them now.
DROP INDEX analytics_address;
`;

/**
 * How many notifications each LISTEN/NOTIFY channel has had: counted by the statement that sends one, and read
 * every few seconds by each process on a PostgreSQL server, which then notices one it missed (db.ts).
 */
const NOTIFICATION_VERSIONS = `
CREATE TABLE notification_versions (channel text PRIMARY KEY, version bigint NOT NULL);
`;

/**
 * Migration: the emailed links of the accounts' throttles (auth.ts). A new reset or deletion link no longer replaces
 * the last one: a few of one purpose may be valid at once (as many as the throttle lets one account ask for within a
 * link's lifetime), so asking again, or someone else asking for you, never voids the link you already have. Using
 * one spends them all. Still only each token's SHA-256.
 */
const AUTH_LINKS = `
ALTER TABLE user_links DROP CONSTRAINT user_links_pkey;
ALTER TABLE user_links ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY;
CREATE INDEX user_links_user ON user_links (user_id, purpose, id);
`;

/**
 * Migration: the outbox becomes the mail queue (mail/queue.ts). An email is queued (status 'pending') in the
 * transaction of what caused it, written out (subject, text, html) in `language`, with its Message-ID; a process
 * leases it (lease_owner until lease_until, ms on the database's clock) and sends it; next_attempt_at (ms, server
 * clock) is when it is due, again after a temporary failure; error says why the last attempt failed. queued_at (the
 * old sent_at) is when it was queued, sent_at when it went. The rows recorded before were never sent anywhere; they
 * are kept as the outbox saw them ('sent', to it) and never go out. Accounts get a language for their emails (null:
 * the channel's).
 */
const MAIL_QUEUE = `
ALTER TABLE outbox RENAME COLUMN sent_at TO queued_at;
ALTER TABLE outbox
  ADD COLUMN kind text NOT NULL DEFAULT 'message',
  ADD COLUMN language text NOT NULL DEFAULT 'en',
  ADD COLUMN html text NOT NULL DEFAULT '',
  ADD COLUMN from_name text NOT NULL DEFAULT '',
  ADD COLUMN reply_to text,
  ADD COLUMN message_id text NOT NULL DEFAULT '',
  ADD COLUMN status text NOT NULL DEFAULT 'sent' CHECK (status IN ('pending', 'sent', 'failed')),
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at bigint NOT NULL DEFAULT 0,
  ADD COLUMN lease_owner text,
  ADD COLUMN lease_until bigint,
  ADD COLUMN sent_at bigint,
  ADD COLUMN error text;
UPDATE outbox SET sent_at = queued_at, message_id = '<outbox-' || id || '@channel-server.invalid>';
ALTER TABLE outbox ALTER COLUMN status SET DEFAULT 'pending';
CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX outbox_to ON outbox (lower(to_email));
ALTER TABLE users ADD COLUMN language text CHECK (language IN ('en', 'fr'));
`;

/**
 * Migration: social sign-in with PKCE and accounts linked by the provider's subject (accounts/social-sign-in.ts).
 * An attempt is one sign-in under way: its state (only the SHA-256), the api key that started it (SHA-256: the
 * viewer's browser), its channel, network and redirect URI, its nonce and PKCE verifier; one-time, 10 minutes. An
 * identity is a provider's person (subject) linked to an account of a channel. The stand-in pages' codes keep the
 * challenge and nonce they were asked with, and whether the page said the address is verified.
 */
const SOCIAL_SIGN_IN = `
CREATE TABLE social_attempts (
  state_hash text PRIMARY KEY, channel_id bigint NOT NULL, provider text NOT NULL, api_key_hash text NOT NULL,
  redirect_uri text NOT NULL, nonce text NOT NULL, code_verifier text NOT NULL, expires_at bigint NOT NULL);
CREATE INDEX social_attempts_expiry ON social_attempts (expires_at);
CREATE TABLE social_identities (
  channel_id bigint NOT NULL, provider text NOT NULL, subject text NOT NULL,
  user_id bigint NOT NULL REFERENCES users(id), created_at bigint NOT NULL,
  PRIMARY KEY (channel_id, provider, subject));
CREATE INDEX social_identities_user ON social_identities (user_id);
ALTER TABLE social_codes
  ADD COLUMN code_challenge text NOT NULL DEFAULT '',
  ADD COLUMN nonce text NOT NULL DEFAULT '',
  ADD COLUMN email_verified integer NOT NULL DEFAULT 1;
`;

/**
 * Migration: card payments through Stripe (commerce/payments.ts, settlement.ts, webhooks.ts). Orders are no longer
 * settled by a timer: a purchase keeps the processor's objects it is paid through (payment_intent; a subscription's
 * processor_subscription; a trial's setup_intent, the card it saves) and is settled by the processor's signed
 * webhooks or a read-back of them (the reconciliation), each applied once. payment_attempt_at (ms, server clock) is
 * when the processor was last asked about it: the reconciliation reads back an order still pending a while after.
 * processor_read_at (ms) is when the subscription's state applied to the order was read: an older read never
 * overwrites a newer one (two events read back at once, committed in the other order).
 * payment_customers: the buyer's customer at the processor, one per viewer (a viewer is one channel's; gone with the
 * account).
 * payment_events: the webhook events applied, per channel's endpoint (a replay changes nothing).
 * A transaction of a subscription names the invoice it paid (one transaction per invoice).
 * Pending orders of the timer era fail (their timer is gone); the trigger that kept users.payment_due_at goes.
 */
const STRIPE_PAYMENTS = `
DROP TRIGGER orders_payment_due ON orders;
DROP FUNCTION orders_payment_due();
UPDATE users SET payment_due_at = NULL WHERE payment_due_at IS NOT NULL;
UPDATE transactions SET status = 'failed' WHERE status = 'created';
UPDATE orders SET status = 'failed', activity_status = 'inactive', settles_at = NULL,
  error = coalesce(error, 'The payment was not completed.') WHERE status = 'created';
UPDATE orders SET renewal_cancel_at = NULL, auto_renewal = 'cancelled' WHERE renewal_cancel_at IS NOT NULL;
DROP INDEX orders_pending;
DROP INDEX orders_renewal_cancel;
DROP INDEX orders_one_pending;
CREATE UNIQUE INDEX orders_one_pending ON orders (user_id, type, product_id, coalesce(participant_id, 0))
  WHERE status = 'created';
ALTER TABLE orders ADD COLUMN payment_intent text, ADD COLUMN setup_intent text,
  ADD COLUMN processor_subscription text, ADD COLUMN payment_attempt_at bigint, ADD COLUMN processor_read_at bigint;
CREATE UNIQUE INDEX orders_payment_intent ON orders (channel_id, payment_intent) WHERE payment_intent IS NOT NULL;
CREATE UNIQUE INDEX orders_setup_intent ON orders (channel_id, setup_intent) WHERE setup_intent IS NOT NULL;
CREATE UNIQUE INDEX orders_processor_subscription ON orders (channel_id, processor_subscription)
  WHERE processor_subscription IS NOT NULL;
CREATE INDEX orders_reconcile ON orders (payment_attempt_at) WHERE status = 'created';
CREATE TABLE payment_customers (
  user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE, channel_id bigint NOT NULL, customer text NOT NULL,
  created_at bigint NOT NULL);
CREATE TABLE payment_events (
  channel_id bigint NOT NULL, id text NOT NULL, type text NOT NULL, received_at bigint NOT NULL,
  PRIMARY KEY (channel_id, id));
CREATE INDEX payment_events_received ON payment_events (received_at);
ALTER TABLE transactions ADD COLUMN invoice text;
CREATE UNIQUE INDEX transactions_invoice ON transactions (order_id, invoice) WHERE invoice IS NOT NULL;
`;

/**
 * Migration 9: a channel runs its own catalogue (the operator API, server/operator/, and the command line).
 * operators: the people who run a channel, by role ('owner': everything, secrets and operators included; 'editor':
 * the catalogue). operator_tokens: their bearer tokens as the SHA-256 (hex) of the token, revocable; the database
 * never holds a usable token. operator_audit: every change made through the API or the command line (who, when, what,
 * the record before and after as JSON; a secret's value never: only that it was set). operator_idempotency: the answer
 * to a create, per operator and Idempotency-Key, so a replay makes one record.
 * channel_secrets: a channel's own secrets for outside services (Stripe's secret key and webhook secret, Google's and
 * Facebook's client secrets), write-only through the API; they take the place of the server-wide environment
 * variables for that channel.
 * events.cancelled_at: a cancelled event leaves every list and answers 404 (the contract has no cancelled state).
 * packages/subscriptions.processor_price: the Stripe Price that sells them, when the channel has Stripe.
 * meta 'event_clock' = 'utc' (written when a production database is created): events.start_offset is then UNIX
 * seconds (the anchor is 0); without it, seconds from each process's start (dev mode's demo, tests' seeds).
 */
const OPERATORS = `
CREATE TABLE operators (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL REFERENCES channels(id),
  email text NOT NULL, role text NOT NULL CHECK (role IN ('owner', 'editor')), created_at bigint NOT NULL,
  removed_at bigint);
CREATE UNIQUE INDEX operators_email ON operators (channel_id, lower(email)) WHERE removed_at IS NULL;
CREATE TABLE operator_tokens (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, token_hash text NOT NULL UNIQUE,
  operator_id bigint NOT NULL REFERENCES operators(id), label text, created_at bigint NOT NULL,
  last_used_at bigint, revoked_at bigint);
CREATE INDEX operator_tokens_operator ON operator_tokens (operator_id);
CREATE TABLE operator_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, channel_id bigint NOT NULL, operator_id bigint,
  actor text NOT NULL, at bigint NOT NULL, action text NOT NULL, resource text NOT NULL, record_id text,
  before_json text, after_json text);
CREATE INDEX operator_audit_channel ON operator_audit (channel_id, id);
CREATE TABLE operator_idempotency (
  operator_id bigint NOT NULL, key text NOT NULL, request_hash text NOT NULL, status integer NOT NULL,
  answer_json text NOT NULL, created_at bigint NOT NULL, PRIMARY KEY (operator_id, key));
CREATE INDEX operator_idempotency_created ON operator_idempotency (created_at);
CREATE TABLE channel_secrets (
  channel_id bigint NOT NULL REFERENCES channels(id), name text NOT NULL, value text NOT NULL,
  updated_at bigint NOT NULL, PRIMARY KEY (channel_id, name));
ALTER TABLE events ADD COLUMN cancelled_at bigint;
ALTER TABLE packages ADD COLUMN processor_price text;
ALTER TABLE subscriptions ADD COLUMN processor_price text;
`;

/**
 * Migration: images the operator API uploads (a participant's logo: `PUT …/participants/{id}/logo`), kept in the
 * database so every process serves them (`/media/uploads/{name}`, operator/uploads.ts) whatever its DATA_DIR. name is
 * the content's SHA-256 (hex, 32 characters) and its extension: the same image uploaded twice is one row, and its
 * URL never changes meaning (served immutable). data is base64.
 */
const OPERATOR_UPLOADS = `
CREATE TABLE uploads (
  name text PRIMARY KEY, channel_id bigint NOT NULL REFERENCES channels(id), content_type text NOT NULL,
  data text NOT NULL, created_at bigint NOT NULL);
`;

/**
 * Migration: a channel's own streams (docs/streams.md). Every event and library item has a stream source:
 * `generated` (the server's test media, as before), `url` (an HLS URL of the channel's packager or CDN, stream_url),
 * `mux` (a Mux playback id, mux_signed when its playback policy is signed: the server then mints a playback token per
 * viewer with the channel's Mux signing key, secrets `mux_signing_key_id` and `mux_signing_private_key`) or, for
 * events only, `ingest` (the channel's encoder pushes over RTMP into nginx, which packages HLS into INGEST_HLS_DIR).
 * An ingest event's stream key (ingest_key, unique) is what its encoder publishes to; nginx's on_publish hook accepts
 * only the current one. live_from/live_until are on the events' clock (as start_offset): when the push started, and
 * when the event stops being live (the push ended plus the reconnect grace; null while pushing). An ingest event is
 * upcoming until its first push, live from live_from until live_until, finished after. recording_seconds: the
 * length of an ingest event's recording once its push has ended.
 */
const STREAM_SOURCES = `
ALTER TABLE events ADD COLUMN stream_source text NOT NULL DEFAULT 'generated'
  CHECK (stream_source IN ('generated', 'url', 'mux', 'ingest'));
ALTER TABLE events ADD COLUMN stream_url text;
ALTER TABLE events ADD COLUMN mux_playback_id text;
ALTER TABLE events ADD COLUMN mux_signed integer NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN ingest_key text;
ALTER TABLE events ADD COLUMN live_from bigint;
ALTER TABLE events ADD COLUMN live_until bigint;
ALTER TABLE events ADD COLUMN recording_seconds double precision;
CREATE UNIQUE INDEX events_ingest_key ON events (ingest_key) WHERE ingest_key IS NOT NULL;
ALTER TABLE vod_items ADD COLUMN stream_source text NOT NULL DEFAULT 'generated'
  CHECK (stream_source IN ('generated', 'url', 'mux'));
ALTER TABLE vod_items ADD COLUMN stream_url text;
ALTER TABLE vod_items ADD COLUMN mux_playback_id text;
ALTER TABLE vod_items ADD COLUMN mux_signed integer NOT NULL DEFAULT 0;
`;

/** Every migration, oldest first; the index + 1 is its version. */
export const MIGRATIONS: readonly string[] = [
  SCHEMA,
  CLIP_DATABASE_CLOCK,
  ANALYTICS_TOTALS,
  NOTIFICATION_VERSIONS,
  AUTH_LINKS,
  MAIL_QUEUE,
  SOCIAL_SIGN_IN,
  STRIPE_PAYMENTS,
  OPERATORS,
  OPERATOR_UPLOADS,
  STREAM_SOURCES,
];
