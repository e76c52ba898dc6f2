import { CategoryCreated } from '@auction/contracts';
import type { RecordedEvent } from './projection';

export const asCategoryCreated = (event: RecordedEvent): CategoryCreated | undefined => {
  if (event.type !== 'CategoryCreated') return undefined;
  const parsed = CategoryCreated.safeParse({ type: event.type, data: event.data });
  return parsed.success ? parsed.data : undefined;
};
