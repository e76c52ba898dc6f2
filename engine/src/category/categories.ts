import {
  fixedCategories,
  type CategoryCreated,
  CategoryNameReserved,
  type Rejection,
  categoryNameStream,
  categoryStream,
  normaliseCategoryName,
  rejection,
} from '@auction/contracts';
import { genesisHash } from '../chain/hash-chain';
import { sealEvents } from '../chain/seal';
import { type EventStore, WrongExpectedRevisionError } from '../event-store/event-store';

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
  | { readonly ok: true; readonly categoryId: string; readonly position: number | undefined }
  | { readonly ok: false; readonly rejection: Rejection };

const appendFirst = async (
  store: EventStore,
  streamId: string,
  event: { type: string; data: unknown },
  command: CreateCategoryCommand,
): Promise<number | 'exists'> => {
  const { events } = sealEvents(streamId, -1, genesisHash(streamId), [event], command);
  try {
    return (await store.append(streamId, events, 'no_stream')).position;
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return 'exists';
    throw error;
  }
};

/**
 * Creates a category whose trimmed, case-folded name is unique. The name is reserved first by
 * appending to its reservation stream with expected revision "no_stream", which only one writer
 * can win on every adapter; a retry of the same category id finishes what a crash interrupted.
 */
export const createCategory = async (
  store: EventStore,
  command: CreateCategoryCommand,
): Promise<CreateCategoryOutcome> => {
  const name = command.name.trim().replace(/\s+/g, ' ');
  const nameStream = categoryNameStream(name);
  const reserved: CategoryNameReserved = {
    type: 'CategoryNameReserved',
    data: { categoryId: command.categoryId, name, at: command.at },
  };
  if ((await appendFirst(store, nameStream, reserved, command)) === 'exists') {
    const [holder] = await store.readStream(nameStream, { toRevision: 0 });
    const owner = holder && CategoryNameReserved.parse({ type: holder.type, data: holder.data });
    if (owner?.data.categoryId !== command.categoryId) {
      return { ok: false, rejection: rejection('CATEGORY_EXISTS') };
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
    position: position === 'exists' ? undefined : position,
  };
};

/** Creates the fixed categories that are missing; safe to run at every start. */
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
};
