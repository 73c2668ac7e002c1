import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { PermanentDeliveryError, TransientDeliveryError } from './errors.ts';
import type { EmailTransport } from './types.ts';

export interface SmtpTransportOptions {
  /** Pooled connections per process. */
  maxConnections?: number;
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  /**
   * Inactivity limit of a connection. nodemailer's default is an hour; a
   * stalled send must end inside the outbox's delivery timeout (10 s), which
   * only stops waiting for it: a send still running after its row's lease
   * lapsed could be sent a second time by another worker.
   */
  socketTimeoutMs?: number;
  /** Told of a failure of the transport itself, outside any send (a pooled connection that died). */
  onError?: (error: Error) => void;
}

/**
 * Delivery over SMTP. Options the operator put in
 * SMTP_URL's query (nodemailer's URL syntax, e.g. `?tls.rejectUnauthorized=false`)
 * win over these defaults.
 */
export function createSmtpTransport(
  smtpUrl: string,
  defaultFrom: string,
  options: SmtpTransportOptions = {},
): EmailTransport {
  const url = new URL(smtpUrl);
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error('SMTP_URL must use smtp:// or smtps://');
  }
  const defaults: Record<string, string> = {
    pool: 'true',
    maxConnections: String(options.maxConnections ?? 3),
    connectionTimeout: String(options.connectionTimeoutMs ?? 5_000),
    greetingTimeout: String(options.greetingTimeoutMs ?? 5_000),
    socketTimeout: String(options.socketTimeoutMs ?? 8_000),
  };
  for (const [key, value] of Object.entries(defaults)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, value);
  }
  // nodemailer reads every option from the URL when it is given one, so the defaults travel in it too.
  const transporter = nodemailer.createTransport(url.toString());
  // nodemailer emits a transport failure on the transporter, and an `error` event without a listener
  // ends the process; each send's own failure still reaches its sender.
  transporter.on('error', (error: Error) => options.onError?.(error));
  disableNagle(transporter.transporter as unknown as SocketSource);

  return {
    kind: 'smtp',
    async send(message) {
      let rejectedCount: number;
      try {
        const info = await transporter.sendMail({
          from: message.from ?? defaultFrom,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
          ...(message.replyTo === undefined ? {} : { replyTo: message.replyTo }),
        });
        rejectedCount = info.rejected.length;
      } catch (error) {
        throw classifySmtpError(error);
      }
      // Every message has one recipient, so a partial rejection is a rejection.
      if (rejectedCount > 0) throw new PermanentDeliveryError('SMTP recipient rejected');
    },
    async close() {
      transporter.close();
    },
  };
}

/** The hook nodemailer's SMTP pool (and single-connection transport) asks for each new connection's socket. */
interface SocketSource {
  getSocket(
    options: { host?: string; port?: number | string; secure?: boolean },
    callback: (error: Error | null, socketOptions: false | { connection: Socket }) => void,
  ): void;
}

/**
 * nodemailer leaves Nagle's algorithm on, and an SMTP exchange is small
 * writes each waiting for a reply: every message then stalls about 40 ms on
 * delayed acknowledgements (measured: 21 messages a second per connection
 * against a local server, about 300 with TCP_NODELAY). This opens each plain
 * connection (`smtp://`, STARTTLS included, which nodemailer still
 * negotiates) with TCP_NODELAY and hands it to nodemailer, whose connection,
 * greeting and socket timeouts still apply. Implicit TLS (`smtps://`) keeps
 * nodemailer's own socket.
 */
function disableNagle(source: SocketSource): void {
  if (typeof source.getSocket !== 'function') throw new Error('nodemailer no longer offers getSocket');
  source.getSocket = (options, callback) => {
    if (options.secure) return callback(null, false);
    // nodemailer's defaults for a plain connection.
    const port = Number(options.port) || 587;
    const connection = connect({ host: options.host || 'localhost', port, noDelay: true });
    callback(null, { connection });
  };
}

interface NodemailerErrorFields {
  code?: unknown;
  responseCode?: unknown;
  command?: unknown;
}

const SAFE_TOKEN = /^[A-Za-z][A-Za-z0-9 _-]{0,30}$/;

/**
 * Sorts a nodemailer failure into permanent or transient. Permanent: the
 * server refused this message or recipient with a 5xx to RCPT TO or DATA, or
 * nodemailer refused the envelope or message before sending (invalid
 * address, oversized). Everything else is retried: connection failures and
 * timeouts, 4xx deferrals, and refusals that hit every message alike
 * (greeting, authentication, MAIL FROM), which an operator can fix while the
 * row waits. The description keeps codes only, and the original error is not
 * attached as a cause, because nodemailer's messages quote the server's reply,
 * which often names the recipient.
 */
export function classifySmtpError(error: unknown): PermanentDeliveryError | TransientDeliveryError {
  const fields: NodemailerErrorFields = typeof error === 'object' && error !== null ? error : {};
  const code = typeof fields.code === 'string' && SAFE_TOKEN.test(fields.code) ? fields.code : undefined;
  const responseCode = typeof fields.responseCode === 'number' ? fields.responseCode : undefined;
  const command =
    typeof fields.command === 'string' && SAFE_TOKEN.test(fields.command) ? fields.command : undefined;
  const description = [
    'SMTP',
    code ?? 'error',
    ...(responseCode === undefined ? [] : [String(responseCode)]),
    ...(command === undefined ? [] : [`at ${command}`]),
  ].join(' ');

  const refusesThisMessage = (code === 'EENVELOPE' || code === 'EMESSAGE') && command !== 'MAIL FROM';
  const isFinalAnswer = responseCode === undefined || (responseCode >= 500 && responseCode < 600);
  if (refusesThisMessage && isFinalAnswer) return new PermanentDeliveryError(description);
  return new TransientDeliveryError(description);
}
