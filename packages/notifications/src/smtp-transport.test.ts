import { connect, createServer } from 'node:net';
import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNotificationsTestDatabase, enqueueSignInEmail, readOutboxRow } from '../test/factories.ts';
import { PermanentDeliveryError, TransientDeliveryError } from './errors.ts';
import { createOutboxWorker } from './outbox-worker.ts';
import { classifySmtpError, createSmtpTransport } from './smtp-transport.ts';
import type { EmailTransport } from './types.ts';

// The real connect, watched: the transport must open its sockets with TCP_NODELAY.
vi.mock('node:net', async (importOriginal) => {
  const net = await importOriginal<typeof import('node:net')>();
  return { ...net, connect: vi.fn(net.connect) };
});

interface ReceivedMail {
  from: string | undefined;
  to: string[];
  raw: string;
}

const received: ReceivedMail[] = [];
let server: SMTPServer;
let smtpUrl: string;
let transport: EmailTransport;
let handle: DatabaseHandle;
const context = { organizationId: 'org_1', outboxId: 'obx_1' };

/** Recipients' local parts choose the server's answer: `bounce` 550, `busy` 451, `spam` 554 to DATA. */
function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

beforeAll(async () => {
  server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce'))
        return callback(smtpError(`No such user ${address.address}`, 550));
      if (address.address.startsWith('busy')) return callback(smtpError('Mailbox busy, try later', 451));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((address) => address.address);
        if (to.some((address) => address.startsWith('spam')))
          return callback(smtpError('Message rejected', 554));
        const from = session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address;
        received.push({ from, to, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  smtpUrl = `smtp://127.0.0.1:${address.port}`;
  transport = createSmtpTransport(smtpUrl, 'Shop <no-reply@shop.example>');
  handle = await createNotificationsTestDatabase();
});

afterAll(async () => {
  await transport.close?.();
  await new Promise<void>((resolve) => server.close(resolve));
  await handle.close();
});

/** A port that nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('SMTP transport', () => {
  it('delivers the message with its plain-text and HTML parts from the default sender', async () => {
    await transport.send(
      {
        to: 'carol@shop.example',
        subject: 'Sign in to Shop',
        text: 'Open https://shop.example/account/verify?token=abc or enter 654321',
        html: '<p>Enter <b>654321</b></p>',
      },
      context,
    );

    const mail = received.find((entry) => entry.to.includes('carol@shop.example'));
    expect(mail?.from).toBe('no-reply@shop.example');
    expect(mail?.raw).toContain('Subject: Sign in to Shop');
    expect(mail?.raw).toContain('654321');
    expect(mail?.raw).toContain('text/html');
  });

  it('reports a 5xx refusal of the recipient as permanent, naming no address', async () => {
    const failure = await transport
      .send({ to: 'bounce@shop.example', subject: 'Hi', text: 'Code 111111' }, context)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(PermanentDeliveryError);
    expect((failure as Error).message).toBe('SMTP EENVELOPE 550 at RCPT TO');
  });

  it('reports a 5xx refusal of the message data as permanent', async () => {
    await expect(
      transport.send({ to: 'spam@shop.example', subject: 'Hi', text: 'Code 111111' }, context),
    ).rejects.toThrow(new PermanentDeliveryError('SMTP EMESSAGE 554 at DATA'));
  });

  it('reports a 4xx deferral as transient', async () => {
    const failure = transport.send({ to: 'busy@shop.example', subject: 'Hi', text: 'Code 111111' }, context);
    await expect(failure).rejects.toBeInstanceOf(TransientDeliveryError);
    await expect(failure).rejects.toThrow('SMTP EENVELOPE 451 at RCPT TO');
  });

  it('reports a server it cannot reach as transient', async () => {
    const unreachable = createSmtpTransport(
      `smtp://127.0.0.1:${await closedPort()}`,
      'no-reply@shop.example',
    );
    try {
      const failure = unreachable.send(
        { to: 'dave@shop.example', subject: 'Hi', text: 'Code 111111' },
        context,
      );
      await expect(failure).rejects.toBeInstanceOf(TransientDeliveryError);
      await expect(failure).rejects.toThrow(/^SMTP (ECONNECTION|ESOCKET)/);
    } finally {
      await unreachable.close?.();
    }
  });

  it('classifies refusals that hit every message alike as transient, so an operator can fix them', () => {
    const cases = [
      { code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN' },
      { code: 'EENVELOPE', responseCode: 553, command: 'MAIL FROM' },
      { code: 'EPROTOCOL', responseCode: 554, command: 'CONN' },
      { code: 'ETIMEDOUT', command: 'CONN' },
    ];
    for (const fields of cases) {
      expect(classifySmtpError(Object.assign(new Error('x'), fields))).toBeInstanceOf(TransientDeliveryError);
    }
    expect(
      classifySmtpError(
        Object.assign(new Error('Invalid recipient "x@"'), { code: 'EENVELOPE', command: 'API' }),
      ),
    ).toBeInstanceOf(PermanentDeliveryError);
  });

  it('opens its connections with TCP_NODELAY, so no message waits on a delayed acknowledgement', async () => {
    // With Nagle's algorithm on, each message stalls about 40 ms (21 a second per connection, see docs/performance.md).
    const single = createSmtpTransport(smtpUrl, 'no-reply@shop.example', { maxConnections: 1 });
    vi.mocked(connect).mockClear();
    try {
      for (let index = 0; index < 3; index++) {
        await single.send({ to: `nagle${index}@shop.example`, subject: 'Hi', text: 'Code 111111' }, context);
      }
    } finally {
      await single.close?.();
    }
    // One pooled connection carried the three messages, and it was opened without Nagle's algorithm.
    expect(vi.mocked(connect).mock.calls).toEqual([
      [expect.objectContaining({ host: '127.0.0.1', noDelay: true })],
    ]);
    expect(received.filter((entry) => entry.to[0]?.startsWith('nagle'))).toHaveLength(3);
  });

  it('refuses a URL that is not smtp:// or smtps://', () => {
    expect(() => createSmtpTransport('http://127.0.0.1:25', 'a@b.c')).toThrow(/smtp:\/\//);
  });

  it('through the worker: delivers one row, fails a bounced one at once and retries a deferred one', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const delivered = await enqueueSignInEmail(handle.db, clock, { to: 'erin@shop.example' });
    const bounced = await enqueueSignInEmail(handle.db, clock, { to: 'bounce@shop.example' });
    const deferredRow = await enqueueSignInEmail(handle.db, clock, { to: 'busy@shop.example' });
    const worker = createOutboxWorker({ db: handle.db, transport, clock });

    expect(await worker.runOnce()).toMatchObject({ claimed: 3, delivered: 1, failed: 1, retried: 1 });

    expect(await readOutboxRow(handle.db, delivered)).toMatchObject({ status: 'DONE', payload: null });
    expect(await readOutboxRow(handle.db, bounced)).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      payload: null,
      last_error: 'SMTP EENVELOPE 550 at RCPT TO',
    });
    expect(await readOutboxRow(handle.db, deferredRow)).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      last_error: 'SMTP EENVELOPE 451 at RCPT TO',
    });
    expect(received.some((entry) => entry.to.includes('erin@shop.example'))).toBe(true);
  });
});
