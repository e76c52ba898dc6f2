import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CategoryCreated,
  type CategoryNameReserved,
  categoryNameStream,
  categoryStream,
  fixedCategories,
} from '@auction/contracts';
import { genesisHash, verifyChain } from '../chain/hash-chain';
import { sealEvents } from '../chain/seal';
import type { EventStore } from '../event-store/event-store';
import { tempSqliteStore } from '../testing/stores';
import { type CreateCategoryCommand, createCategory, seedFixedCategories } from './categories';

const AT = '2026-01-01T00:00:00.000Z';

const command = (categoryId: string, name: string): CreateCategoryCommand => ({
  categoryId,
  name,
  description: 'd',
  commandId: `c-${categoryId}`,
  actorId: 'u1',
  correlationId: `c-${categoryId}`,
  at: AT,
});

/** What a version before confusable keys wrote: the lower-cased name's stream, then the category. */
const legacyCreate = async (store: EventStore, categoryId: string, name: string) => {
  const ids = { commandId: `old-${categoryId}`, actorId: 'system', correlationId: 'old' };
  const reserved: CategoryNameReserved = {
    type: 'CategoryNameReserved',
    data: { categoryId, name, at: AT },
  };
  const created: CategoryCreated = {
    type: 'CategoryCreated',
    data: { categoryId, name, description: 'd', createdBy: 'system', at: AT },
  };
  for (const [stream, event] of [
    [categoryNameStream(name), reserved],
    [categoryStream(categoryId), created],
  ] as const) {
    const { events } = sealEvents(stream, -1, genesisHash(stream), [event], ids);
    await store.append(stream, events, 'no_stream');
  }
};

let env: ReturnType<typeof tempSqliteStore>;
beforeEach(() => {
  env = tempSqliteStore();
});
afterEach(() => env.cleanup());

const code = (outcome: Awaited<ReturnType<typeof createCategory>>) =>
  outcome.ok ? 'ok' : outcome.rejection.code;

describe('createCategory', () => {
  it('refuses look-alikes of a name, whichever spelling came first', async () => {
    await seedFixedCategories(env.store, AT);
    expect(code(await createCategory(env.store, command('c1', '\u0415lectronics')))).toBe(
      'CATEGORY_EXISTS',
    );
    expect(code(await createCategory(env.store, command('c2', 'Elec\u200btronics')))).toBe(
      'CATEGORY_EXISTS',
    );
    expect(code(await createCategory(env.store, command('c3', 'Ｇａｍｉｎｇ')))).toBe(
      'CATEGORY_EXISTS',
    );
    expect(code(await createCategory(env.store, command('c4', 'R\u0430re Maps')))).toBe('ok');
    expect(code(await createCategory(env.store, command('c5', 'Rare Maps')))).toBe(
      'CATEGORY_EXISTS',
    );
    expect(code(await createCategory(env.store, command('c6', 'Rare Globes')))).toBe('ok');
    for (const id of ['c1', 'c2', 'c3', 'c5'])
      expect(await env.store.streamRevision(categoryStream(id))).toBeUndefined();
  });

  it('lets one of two simultaneous look-alikes win', async () => {
    const outcomes = await Promise.all([
      createCategory(env.store, command('a', 'Stamps')),
      createCategory(env.store, command('b', 'St\u0430mps')),
      createCategory(env.store, command('c', 'ＳＴＡＭＰＳ')),
    ]);
    expect(outcomes.map(code).filter((c) => c === 'ok')).toHaveLength(1);
  });

  it('finishes a retry of the same category', async () => {
    expect(code(await createCategory(env.store, command('a', 'Stamps')))).toBe('ok');
    expect(code(await createCategory(env.store, command('a', 'Stamps')))).toBe('ok');
    expect(await env.store.streamRevision(categoryStream('a'))).toBe(0);
  });
});

describe('a log written before confusable keys', () => {
  it('keeps its categories and reservation streams, and refuses their look-alikes after seeding', async () => {
    for (const category of fixedCategories)
      await legacyCreate(env.store, category.categoryId, category.name);
    await legacyCreate(env.store, 'maps', 'Rare Maps');

    await seedFixedCategories(env.store, AT);

    for (const name of [
      '\u0415lectronics',
      'ＥＬＥＣＴＲＯＮＩＣＳ',
      'electronics',
      'R\u0430re Maps',
    ])
      expect(code(await createCategory(env.store, command(`x-${name}`, name))), name).toBe(
        'CATEGORY_EXISTS',
      );
    expect(code(await createCategory(env.store, command('globes', 'Rare Globes')))).toBe('ok');

    // The old streams are untouched: one event each, chains intact.
    for (const stream of [categoryNameStream('Electronics'), categoryStream('electronics')]) {
      const events = await env.store.readStream(stream);
      expect(events).toHaveLength(1);
      expect(verifyChain(stream, events)).toMatchObject({ ok: true });
    }
    // Seeding again writes nothing.
    const head = await env.store.headPosition();
    await seedFixedCategories(env.store, AT);
    expect(await env.store.headPosition()).toBe(head);
  });

  it('leaves both of two old look-alike categories working', async () => {
    await legacyCreate(env.store, 'one', 'Stamps');
    await legacyCreate(env.store, 'two', 'St\u0430mps');
    await seedFixedCategories(env.store, AT);
    expect(await env.store.streamRevision(categoryStream('one'))).toBe(0);
    expect(await env.store.streamRevision(categoryStream('two'))).toBe(0);
    expect(code(await createCategory(env.store, command('three', 'ＳＴＡＭＰＳ')))).toBe(
      'CATEGORY_EXISTS',
    );
  });
});
