/**
 * The mail queue across real server processes (testing/processes.ts), sending to a real SMTP server in this test
 * process (testing/smtp.ts): a process killed (SIGKILL) while the mail service held its email (committed, and half
 * sent) sends it once after its restart; two processes on one PostgreSQL database send each email once. The first
 * runs on the embedded database and, with DATABASE_URL (`npm run test:postgres`), on a PostgreSQL server, where the
 * restarted process waits for the dead one's lease to run out; the second needs DATABASE_URL.
 * Run: node --import tsx --test server/mail/mail-processes.test.ts
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { testDatabase } from '../testing/harness.js';
import { ServerProcess, sleep, until } from '../testing/processes.js';
import { TestSmtp } from '../testing/smtp.js';

const embedded = !process.env.DATABASE_URL;
const MAIL_FROM = 'no-reply@tv.example';

/** Processes on one new database, sending through one SMTP server. */
class Setup {
  smtp!: TestSmtp;
  servers: ServerProcess[] = [];
  private database: Awaited<ReturnType<typeof testDatabase>> | undefined;
  private tmp = '';

  async start(names: string[], env: Record<string, string>): Promise<void> {
    this.smtp = await TestSmtp.start();
    this.database = await testDatabase();
    this.tmp = mkdtempSync(join(tmpdir(), 'channel-mail-test-'));
    this.servers = names.map(
      (name) =>
        new ServerProcess(name, {
          dataDir: join(this.tmp, name),
          env: {
            DATABASE_URL: this.database!.options.databaseUrl,
            DATABASE_TEMPLATES: this.database!.options.databaseTemplates,
            SMTP_URL: this.smtp.url,
            MAIL_FROM,
            ...env,
          },
        }),
    );
    await Promise.all(this.servers.map((server) => server.start()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.kill()));
    await this.smtp?.stop();
    await this.database?.drop();
    if (this.tmp) rmSync(this.tmp, { recursive: true, force: true });
  }

  /** A test body whose failure also shows what the processes printed. */
  showing(body: () => Promise<void>): () => Promise<void> {
    return async () => {
      try {
        await body();
      } catch (error) {
        console.error(this.servers.map((server) => server.output()).join('\n'));
        throw error;
      }
    };
  }
}

describe('a SIGKILL between the commit and the send', () => {
  const setup = new Setup();
  // The embedded database is one process's: its next start frees what the dead one held, so a lease longer than the
  // test proves it does. A PostgreSQL server may have other processes: the lease must run out first.
  before(() => setup.start(['killed'], { MAIL_LEASE_MS: embedded ? '3600000' : '3000' }));
  after(() => setup.stop());

  test(
    'the email the process was sending when it died goes once, after the restart',
    setup.showing(async () => {
      const [server] = setup.servers;
      const { smtp } = setup;
      const email = `killed-${Date.now()}@example.com`;
      smtp.hold = true;
      await server!.register(email, 'killed-pass-1');
      // Committed, and handed to the service, which holds its answer: the process dies there.
      await until('the email held by the service', async () => smtp.held === 1);
      await server!.kill();
      await until('the service to see the sender go', async () => smtp.held === 0);
      smtp.release();
      assert.equal(smtp.to(email).length, 0, 'nothing was delivered');
      await server!.start();
      const [received] = await smtp.waitFor(email, 1, 30_000);
      assert.match(String(received!.mail.subject), /^Verify your email address for /);
      await sleep(3000);
      assert.equal(smtp.to(email).length, 1, 'once');
    }),
  );
});

describe(
  'two processes on one PostgreSQL database',
  { skip: embedded && 'needs DATABASE_URL (npm run test:postgres)' },
  () => {
    const setup = new Setup();
    before(() => setup.start(['A', 'B'], { MAIL_LEASE_MS: '3000' }));
    after(() => setup.stop());

    test(
      'send each email once, whichever queued it',
      setup.showing(async () => {
        const [a, b] = setup.servers;
        const { smtp } = setup;
        // Both processes are given work while the service holds the first emails back, so both are sending at once
        // when it lets go.
        smtp.hold = true;
        const emails = Array.from({ length: 16 }, (_, n) => `pair-${n}-${Date.now()}@example.com`);
        await Promise.all(emails.map((email, n) => (n % 2 ? b! : a!).register(email, 'pair-pass-1')));
        await until('both processes sending', async () => smtp.held === 2);
        smtp.release();
        for (const email of emails) await smtp.waitFor(email, 1, 30_000);
        await sleep(3000);
        assert.deepEqual(
          emails.map((email) => smtp.to(email).length),
          emails.map(() => 1),
        );
      }),
    );
  },
);
