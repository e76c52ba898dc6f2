import {
  fixedCategories,
  CategoryCreated,
  CategoryNameReserved,
  type Rejection,
  SYSTEM_ACTOR,
  categoryNameStream,
  categoryStream,
  normaliseCategoryName,
  rejection,
} from '@auction/contracts';
import { genesisHash } from '../chain/hash-chain';
import { type CommandIds, sealEvents } from '../chain/seal';
import { type EventStore, WrongExpectedRevisionError } from '../event-store/event-store';
import { categoryKeyStream, categoryNameKeys } from './category-name-key';

export interface CreateCategoryCommand {
  readonly categoryId: string;
  readonly name: string;
  readonly description: string;
  readonly commandId: string;
  readonly actorId: string;
  readonly correlationId: string;
  readonly at: string;
}

export type CreateCategoryOutcome =
  | {
      readonly ok: true;
      readonly categoryId: string;
      /** The name and description as recorded (trimmed): what the category reads as. */
      readonly name: string;
      readonly description: string;
      readonly position: number | undefined;
    }
  | { readonly ok: false; readonly rejection: Rejection };

const appendFirst = async (
  store: EventStore,
  streamId: string,
  event: { type: string; data: unknown },
  ids: CommandIds,
): Promise<number | 'exists'> => {
  const { events } = sealEvents(streamId, -1, genesisHash(streamId), [event], ids);
  try {
    return (await store.append(streamId, events, 'no_stream')).position;
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return 'exists';
    throw error;
  }
};

/** The category a reservation stream is held for, or `undefined` when the stream is free. */
const holderOf = async (store: EventStore, streamId: string): Promise<string | undefined> => {
  const [first] = await store.readStream(streamId, { toRevision: 0 });
  return (
    first && CategoryNameReserved.parse({ type: first.type, data: first.data }).data.categoryId
  );
};

const collapse = (name: string): string => name.trim().replace(/\s+/g, ' ');

/**
 * Creates a category whose name no other category's looks like: the name is reserved under each of
 * its keys by appending with expected revision "no_stream", which only one writer wins on every
 * adapter. Every key is looked at before any is written, so a refused name reserves nothing; a
 * retry of the same id finishes what a crash interrupted. See engine/README.md, Categories.
 */
export const createCategory = async (
  store: EventStore,
  command: CreateCategoryCommand,
): Promise<CreateCategoryOutcome> => {
  const name = collapse(command.name);
  const refused: CreateCategoryOutcome = { ok: false, rejection: rejection('CATEGORY_EXISTS') };
  const streams = [categoryNameStream(name), ...categoryNameKeys(name).map(categoryKeyStream)];
  for (const stream of streams) {
    const holder = await holderOf(store, stream);
    if (holder !== undefined && holder !== command.categoryId) return refused;
  }
  const reserved: CategoryNameReserved = {
    type: 'CategoryNameReserved',
    data: { categoryId: command.categoryId, name, at: command.at },
  };
  for (const stream of streams) {
    if (
      (await appendFirst(store, stream, reserved, command)) === 'exists' &&
      (await holderOf(store, stream)) !== command.categoryId
    ) {
      return refused;
    }
  }
  const created: CategoryCreated = {
    type: 'CategoryCreated',
    data: {
      categoryId: command.categoryId,
      name,
      description: command.description.trim(),
      createdBy: command.actorId,
      at: command.at,
    },
  };
  const position = await appendFirst(store, categoryStream(command.categoryId), created, command);
  return {
    ok: true,
    categoryId: command.categoryId,
    name: created.data.name,
    description: created.data.description,
    position: position === 'exists' ? undefined : position,
  };
};

const PAGE = 500;

/**
 * Reserves the confusable keys that existing categories lack: every category created before
 * those keys existed, or whose keys changed with the confusables data. A key another category
 * holds already (two look-alikes both created before) stays with it: both categories keep
 * working, and new look-alikes of either are refused. Reads only, once every key is held.
 */
const reserveMissingKeys = async (store: EventStore, at: string): Promise<void> => {
  let afterPosition: number | undefined;
  for (;;) {
    const page = await store.readAll({
      eventTypes: ['CategoryCreated'],
      maxCount: PAGE,
      ...(afterPosition === undefined ? {} : { afterPosition }),
    });
    for (const event of page) {
      const parsed = CategoryCreated.safeParse({ type: event.type, data: event.data });
      if (!parsed.success) continue;
      const { categoryId, name } = parsed.data.data;
      const ids = {
        commandId: `keys-${categoryId}`,
        actorId: SYSTEM_ACTOR,
        correlationId: `keys-${categoryId}`,
      };
      const reserved: CategoryNameReserved = {
        type: 'CategoryNameReserved',
        data: { categoryId, name, at },
      };
      for (const key of categoryNameKeys(name)) {
        const stream = categoryKeyStream(key);
        if ((await store.streamRevision(stream)) === undefined)
          await appendFirst(store, stream, reserved, ids);
      }
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE) return;
    afterPosition = last.position;
  }
};

/**
 * Creates the fixed categories that are missing, then reserves the confusable keys of every
 * category that lacks one (`reserveMissingKeys`); safe to run at every start.
 */
export const seedFixedCategories = async (store: EventStore, at: string): Promise<void> => {
  for (const category of fixedCategories) {
    if ((await store.streamRevision(categoryStream(category.categoryId))) !== undefined) continue;
    const outcome = await createCategory(store, {
      ...category,
      commandId: `seed-${category.categoryId}`,
      correlationId: `seed-${category.categoryId}`,
      actorId: 'system',
      at,
    });
    if (!outcome.ok) {
      throw new Error(
        `Cannot seed ${category.name}: ${normaliseCategoryName(category.name)} is taken`,
      );
    }
  }
  await reserveMissingKeys(store, at);
};
