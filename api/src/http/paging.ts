import { DomainError, INVALID_CURSOR, type PageQuery, rejection } from '@auction/contracts';
import { type PageRequest, type PagedList, decodeCursor } from '@auction/projections';

/**
 * The page a list's query asks for (`PageQuery`, as parsed): its cursor must be one that `list`
 * gave, else a 400 (made up, cut, or another list's); empty or absent is the first page.
 */
export const pageRequest = (list: PagedList, { limit, cursor }: PageQuery): PageRequest => {
  const after = cursor === undefined || cursor === '' ? undefined : decodeCursor(list, cursor);
  if (cursor && !after)
    throw new DomainError(rejection('VALIDATION_FAILED', { field: 'cursor' }, INVALID_CURSOR));
  return { ...(limit === undefined ? {} : { limit }), ...(after ? { after } : {}) };
};
