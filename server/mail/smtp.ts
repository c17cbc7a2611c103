/**
 * The SMTP transport (SMTP_URL): nodemailer over a small pool of connections to the operator's mail service.
 * `smtps://user:password@host:465` speaks TLS from the start; `smtp://user:password@host:587` upgrades with STARTTLS
 * when the service offers it (`?requireTLS=true` refuses to send otherwise). What the service answers decides what
 * the queue does with an email: accepted is sent; a 5xx answer about the recipient or the message (550 no such
 * mailbox, 554 refused) fails it for good; anything else (no connection, a timeout, a 4xx answer, even a refused
 * login, which the operator can put right) is tried again later.
 */
import { createTransport } from 'nodemailer';
import type { Delivery, MailTransport, OutgoingEmail } from './mail.js';

/** What nodemailer's errors carry beside their message. */
interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  command?: string;
}

/** The SMTP commands whose 5xx answer is about this email (its sender, recipient or content), not the service. */
const ABOUT_THE_EMAIL = /^(MAIL FROM|RCPT TO|DATA|BDAT|MESSAGE)/i;

/** What one failed attempt means for the email. */
export function classify(error: SmtpError): Delivery & { sent: false } {
  const code = error.responseCode;
  const reason = `${code ? `${code} ` : ''}${error.code ?? ''} ${error.message}`.replace(/\s+/g, ' ').trim();
  const aboutTheEmail =
    error.code === 'EENVELOPE' || error.code === 'EMESSAGE' || ABOUT_THE_EMAIL.test(error.command ?? '');
  return { sent: false, permanent: code !== undefined && code >= 500 && code < 600 && aboutTheEmail, reason };
}

/** The transport over one SMTP URL (never logged: it holds the password). */
export function smtpTransport(url: string): MailTransport {
  const transporter = createTransport({
    url,
    pool: true,
    maxConnections: 2,
    // A service that does not answer is given up on soon, so the queue moves on (and retries it later).
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
    // nodemailer's own logger stays off: it would print addresses and the conversation.
    logger: false,
  });
  return {
    name: 'smtp',
    async deliver(email: OutgoingEmail): Promise<Delivery> {
      try {
        await transporter.sendMail({
          from: email.from,
          to: email.to,
          ...(email.replyTo ? { replyTo: email.replyTo } : {}),
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: email.messageId,
          date: email.date,
        });
        return { sent: true };
      } catch (error) {
        return classify(error as SmtpError);
      }
    },
    async close() {
      transporter.close();
    },
  };
}
