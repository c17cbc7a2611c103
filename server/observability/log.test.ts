/**
 * The log's redaction (log.ts): whatever a caller hands it, no password, token, api key, card detail or full email
 * address is written, at any depth, in a message or in an error's message and stack.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger, scrub } from './log.js';

/** The lines a logger writes for `write`. */
function linesOf(write: (logger: ReturnType<typeof createLogger>) => void): string {
  const lines: string[] = [];
  write(createLogger({ level: 'trace', destination: { write: (line: string) => void lines.push(line) } }));
  return lines.join('');
}

test('secrets are redacted by name at any depth, and emails, bearer tokens and key values scrubbed from any text', () => {
  const error = new Error('no account for jane.doe@example.com (Bearer abc.def.ghi)');
  const text = linesOf((logger) => {
    logger.info(
      { password: 'hunter2-pass', user: { token: 'tok_123456', profile: { api_key: 'key-9876' } } },
      'sign-in',
    );
    logger.warn({ card: { number: '4242424242424242', cvc: '123' }, payment_method: 'pm_secret' }, 'card');
    logger.error({ err: error, url: '/api/profile?api_key=key-5555&x=1' }, 'failed for sam@example.org');
  });
  for (const secret of [
    'hunter2-pass',
    'tok_123456',
    'key-9876',
    '4242424242424242',
    'pm_secret',
    'jane.doe@',
    'sam@',
    'abc.def.ghi',
    'key-5555',
  ])
    assert.ok(!text.includes(secret), `${secret} was written: ${text}`);
  assert.match(text, /"password":"\[redacted\]"/);
  assert.match(text, /j…@example\.com/, 'the domain of an address stays');
  assert.match(text, /"stack":"Error: no account for j…@example\.com/, 'the error keeps its stack');
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(
    lines.map((l) => [l.level, l.msg]),
    [
      [30, 'sign-in'],
      [40, 'card'],
      [50, 'failed for s…@example.org'],
    ],
  );
  // Stripe's secrets, wherever a text quotes them (an SDK error, a configuration dump); an intent keeps its id.
  const stripe = linesOf((logger) => {
    logger.error(
      {
        err: new Error('Invalid API Key provided: sk_live_51Habcdef0123 (whsec_abc123def)'),
        stripe: { secretKey: 'x1' },
      },
      'stripe failed for rk_test_998877 and pi_3Abc_secret_XyZ987, seti_9_secret_Q1',
    );
  });
  for (const secret of ['51Habcdef0123', 'whsec_abc123def', 'rk_test_998877', 'XyZ987', 'secret_Q1', 'x1'])
    assert.ok(!stripe.includes(secret), `${secret} was written: ${stripe}`);
  assert.match(stripe, /pi_3Abc_secret_\[redacted\]/);
  // A channel's own secrets by their names (a Google or Facebook secret has no pattern to be known by).
  const own = linesOf((logger) => {
    logger.warn(
      {
        secrets: { google_client_secret: 'g-own-1', facebook_app_secret: 'fb-own-2', stripe_webhook_secret: 'w-3' },
        google: { clientSecret: 'g-own-4' },
        facebook: { appSecret: 'fb-own-5' },
      },
      'secrets',
    );
  });
  for (const secret of ['g-own-1', 'fb-own-2', 'w-3', 'g-own-4', 'fb-own-5'])
    assert.ok(!own.includes(secret), `${secret} was written: ${own}`);
  // A text with nothing to scrub is left as it is.
  assert.equal(scrub('GET login 200'), 'GET login 200');
});
