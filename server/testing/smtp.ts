/**
 * A real SMTP server inside the test process (the `smtp-server` package), for the tests of the mail queue: it
 * takes logins, answers RCPT TO and DATA as the test says (accept, refuse a recipient for good with 550, refuse for
 * now with 451, or hold the DATA answer back until released), and keeps every message it accepted, parsed with
 * `mailparser`, with its raw source and envelope. A message whose sender goes away before it is answered (a
 * process killed while the service held its DATA answer back) is not kept: the sender never heard it was taken. `stop()` takes it down and `start()` brings it back on the same
 * port: SMTP down, then up again. Not a test file itself.
 */
import { once } from 'node:events';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { freePort, until } from './processes.js';

/** A message as it arrived: parsed, its raw source and who it was for. */
export interface Received {
  mail: ParsedMail;
  raw: string;
  from: string;
  to: string[];
  user: string | undefined;
}

/** What the server answers a recipient with. */
export type Answer = 'accept' | 'reject' | 'defer';

export class TestSmtp {
  readonly received: Received[] = [];
  /** Every RCPT TO it was asked, accepted or not (a refused email is asked once, and no more). */
  readonly asked: string[] = [];
  /** How each recipient is answered (default: accepted). */
  answer: (address: string) => Answer = () => 'accept';
  private server: SMTPServer | undefined;
  /** DATA answers held back, by the session (connection) that waits for them. */
  private holding = new Map<string, () => void>();
  /** Hold every DATA answer until `release()` (the sender waits, as on a slow service). */
  hold = false;

  private constructor(
    readonly port: number,
    readonly user: string,
    readonly pass: string,
  ) {}

  /** A server listening on a free loopback port, with its login. */
  static async start(user = 'mailer', pass = 'smtp-secret'): Promise<TestSmtp> {
    const smtp = new TestSmtp(await freePort(), user, pass);
    await smtp.start();
    return smtp;
  }

  /** SMTP_URL for it. */
  get url(): string {
    return `smtp://${this.user}:${this.pass}@127.0.0.1:${this.port}`;
  }

  /** Starts listening (again) on its port. */
  async start(): Promise<void> {
    const server = new SMTPServer({
      secure: false,
      // No STARTTLS over loopback: the self-signed certificate it would offer is not what the test is about.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.user && auth.password === this.pass) callback(null, { user: auth.username });
        else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onRcptTo: (address: SMTPServerAddress, _session, callback) => {
        this.asked.push(address.address);
        const answer = this.answer(address.address);
        if (answer === 'reject')
          callback(Object.assign(new Error('5.1.1 No such mailbox here'), { responseCode: 550 }));
        else if (answer === 'defer')
          callback(Object.assign(new Error('4.2.1 Mailbox busy, try again later'), { responseCode: 451 }));
        else callback();
      },
      onClose: (session: SMTPServerSession) => {
        this.holding.delete(session.id);
      },
      onData: (stream, session: SMTPServerSession, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const accept = () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            simpleParser(raw)
              .then((mail) => {
                this.received.push({
                  mail,
                  raw,
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  to: session.envelope.rcptTo.map((r) => r.address),
                  user: typeof session.user === 'string' ? session.user : undefined,
                });
                callback();
              })
              .catch((error: Error) => callback(error));
          };
          if (this.hold) this.holding.set(session.id, accept);
          else accept();
        });
      },
    });
    server.listen(this.port, '127.0.0.1');
    await once(server.server, 'listening');
    this.server = server;
  }

  /** Answers the DATA held back so far (and stops holding). */
  release(): void {
    this.hold = false;
    const held = [...this.holding.values()];
    this.holding.clear();
    for (const accept of held) accept();
  }

  /** How many DATA answers are held back now (of senders still connected). */
  get held(): number {
    return this.holding.size;
  }

  /** Takes the server down (connections refused), closing what is open. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    // Connections still open (a pooled sender's) are cut, as a service going down cuts them.
    for (const connection of (server as unknown as { connections: Set<{ close(): void }> }).connections ?? [])
      connection.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The messages that arrived for one address. */
  to(address: string): Received[] {
    return this.received.filter((r) => r.to.some((to) => to.toLowerCase() === address.toLowerCase()));
  }

  /** Waits until `count` messages arrived for an address; answers them. */
  async waitFor(address: string, count = 1, timeoutMs = 20_000): Promise<Received[]> {
    return until(
      `${count} email(s) to ${address} (${this.to(address).length} so far)`,
      async () => {
        const got = this.to(address);
        return got.length >= count ? got : undefined;
      },
      timeoutMs,
      50,
    );
  }
}
