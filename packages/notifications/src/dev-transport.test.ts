import { loadConfig, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNotificationsTestDatabase,
  deferred,
  enqueueSignInEmail,
  ORG_ID,
  readOutboxRow,
  recordingLogger,
} from '../test/factories.ts';
import { createDevTransport, DEV_EMAIL_RETENTION_MS, pruneDevEmails } from './dev-transport.ts';
import { createOutboxWorker } from './outbox-worker.ts';
import { createEmailTransportFromConfig, startOutboxWorkerFromConfig } from './start-outbox-worker.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  handle = await createNotificationsTestDatabase();
});

afterAll(async () => {
  await handle.close();
});

describe('development transport', () => {
  it('records the delivered message in dev_emails and logs metadata only', async () => {
    const id = await enqueueSignInEmail(handle.db, clock, { to: 'bob@shop.example' });
    const logger = recordingLogger();
    const worker = createOutboxWorker({
      db: handle.db,
      transport: createDevTransport(handle.db, logger, clock),
      clock,
    });

    expect(await worker.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });

    const recorded = await handle.db
      .selectFrom('dev_emails')
      .selectAll()
      .where('outbox_id', '=', id)
      .execute();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      organization_id: ORG_ID,
      to_address: 'bob@shop.example',
      subject: 'Your sign-in code',
      html_body: null,
    });
    expect(recorded[0]?.id).toMatch(/^eml_/);
    expect(recorded[0]?.text_body).toMatch(/^Your code is \d{6}$/);
    expect((await readOutboxRow(handle.db, id)).payload).toBeNull();

    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.obj).toEqual({
      devEmailId: recorded[0]?.id,
      outboxId: id,
      organizationId: ORG_ID,
      templateType: 'customer.sign_in_code',
      recipientDomain: 'shop.example',
      subject: 'Your sign-in code',
    });
    expect(logger.text()).not.toContain('bob@');
    expect(logger.text()).not.toContain(recorded[0]?.text_body);
  });
});

describe('pruneDevEmails', () => {
  it('deletes recorded messages, bodies and all, once they are a day old, and keeps younger ones', async () => {
    await handle.db.deleteFrom('dev_emails').execute();
    const pruneClock = new ManualClock('2026-04-01T00:00:00.000Z');
    const transport = createDevTransport(handle.db, recordingLogger(), pruneClock);
    const message = {
      to: 'carol@shop.example',
      subject: 'Your sign-in link',
      text: 'https://shop.example/x',
    };
    const context = { organizationId: ORG_ID, templateType: 'customer.sign_in_link' };
    await transport.send(message, { ...context, outboxId: 'obx_prune_old' });
    pruneClock.advance(60 * 60 * 1000);
    await transport.send(message, { ...context, outboxId: 'obx_prune_new' });
    const remaining = () =>
      handle.db.selectFrom('dev_emails').select('outbox_id').orderBy('outbox_id').execute();

    pruneClock.set(new Date(Date.parse('2026-04-01T00:00:00.000Z') + DEV_EMAIL_RETENTION_MS));
    expect(await pruneDevEmails(handle.db, pruneClock.now())).toBe(0);
    pruneClock.advance(1);
    expect(await pruneDevEmails(handle.db, pruneClock.now())).toBe(1);
    expect(await remaining()).toEqual([{ outbox_id: 'obx_prune_new' }]);
    pruneClock.advance(60 * 60 * 1000);
    expect(await pruneDevEmails(handle.db, pruneClock.now())).toBe(1);
    expect(await remaining()).toEqual([]);
  });
});

describe('startOutboxWorkerFromConfig', () => {
  it('chooses SMTP when SMTP_URL is set and the development transport otherwise', () => {
    const dependencies = { db: handle.db, logger: recordingLogger() };
    expect(createEmailTransportFromConfig(loadConfig({}), dependencies).kind).toBe('dev');
    const smtp = createEmailTransportFromConfig(
      loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }),
      dependencies,
    );
    expect(smtp.kind).toBe('smtp');
    return smtp.close?.();
  });

  it('starts a polling worker that delivers through the configured transport and stops cleanly', async () => {
    const id = await enqueueSignInEmail(handle.db, clock);
    const logger = recordingLogger();
    const delivered = deferred();
    const running = startOutboxWorkerFromConfig(loadConfig({ WORKER_POLL_MS: '5' }), {
      db: handle.db,
      clock,
      logger: {
        ...logger,
        info(obj, msg) {
          logger.info(obj, msg);
          if (msg === 'email delivered') delivered.resolve();
        },
      },
    });

    expect(running.transport.kind).toBe('dev');
    await delivered.promise;
    await running.stop();
    await running.stop();

    expect((await readOutboxRow(handle.db, id)).status).toBe('DONE');
    expect(logger.lines.map((line) => line.msg)).toEqual([
      'outbox worker started',
      'email recorded by the development transport',
      'email delivered',
      'outbox worker stopped',
    ]);
  });
});
