import { categoryStream, userStream } from '@auction/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyChain } from './chain/hash-chain';
import { Engine } from './engine';
import { tempSqliteStore } from './testing/stores';

const AT = '2026-01-01T00:00:00.000Z';
const metadata = (commandId: string) => ({
  commandId,
  actorId: 'u1',
  correlationId: commandId,
  at: AT,
});

let env: ReturnType<typeof tempSqliteStore>;
let engine: Engine;
beforeEach(() => {
  env = tempSqliteStore();
  engine = new Engine({ store: env.store });
});
afterEach(async () => {
  await engine.close();
  await env.cleanup();
});

describe('the engine, the one door to the event log', () => {
  it('records account events on the user stream, chained, once per command even when retried', async () => {
    const registered = {
      type: 'AccountRegistered',
      data: { userId: 'u1', method: 'password', at: AT },
    } as const;
    const deleted = {
      type: 'AccountDeleted',
      data: { userId: 'u1', cancelledAuctions: 0, retractedBids: 0, at: AT },
    } as const;
    const first = await engine.recordAccountEvent(registered, metadata('c1'));
    expect(await engine.recordAccountEvent(registered, metadata('c1'))).toBe(first);
    await engine.recordAccountEvent(deleted, metadata('c2'));
    const stream = await env.store.readStream(userStream('u1'));
    expect(stream.map((event) => event.type)).toEqual(['AccountRegistered', 'AccountDeleted']);
    expect(verifyChain(userStream('u1'), stream)).toMatchObject({ ok: true });
  });

  it('chains concurrent account events of one user without losing any', async () => {
    const events = Array.from({ length: 8 }, (_, i) =>
      engine.recordAccountEvent(
        { type: 'AccountRegistered', data: { userId: 'u2', method: 'google', at: AT } },
        metadata(`race-${i}`),
      ),
    );
    await Promise.all(events);
    const stream = await env.store.readStream(userStream('u2'));
    expect(stream).toHaveLength(8);
    expect(verifyChain(userStream('u2'), stream)).toMatchObject({ ok: true });
  });

  it('creates categories with unique names and seeds the fixed ones once', async () => {
    await engine.seedFixedCategories(AT);
    await engine.seedFixedCategories(AT);
    expect(await env.store.streamRevision(categoryStream('antiques'))).toBe(0);
    const command = (categoryId: string, name: string) => ({
      categoryId,
      name,
      description: 'd',
      commandId: `c-${categoryId}`,
      actorId: 'u1',
      correlationId: `c-${categoryId}`,
      at: AT,
    });
    const [a, b] = await Promise.all([
      engine.createCategory(command('stamps-1', 'Stamps')),
      engine.createCategory(command('stamps-2', ' STAMPS ')),
    ]);
    expect([a, b].filter((outcome) => outcome.ok)).toHaveLength(1);
    expect([a, b].find((outcome) => !outcome.ok)).toMatchObject({
      rejection: { code: 'CATEGORY_EXISTS' },
    });
  });

  it('refuses writes once closed, after those in flight finish', async () => {
    const inFlight = engine.recordAccountEvent(
      { type: 'AccountRegistered', data: { userId: 'u3', method: 'password', at: AT } },
      metadata('c3'),
    );
    const closed = engine.close();
    await expect(
      engine.recordAccountEvent(
        { type: 'AccountRegistered', data: { userId: 'u4', method: 'password', at: AT } },
        metadata('c4'),
      ),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await closed;
    expect(await inFlight).toBeGreaterThanOrEqual(0);
    expect(await env.store.streamRevision(userStream('u3'))).toBe(0);
    expect(await env.store.streamRevision(userStream('u4'))).toBeUndefined();
  });
});
