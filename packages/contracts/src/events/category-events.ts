import { z } from 'zod';
import { Id } from '../ids';
import { rules } from '../rules';
import { IsoTime } from '../time';

export const CategoryName = z
  .string()
  .trim()
  .min(1, 'Please enter Name of Category')
  .max(rules.maxLength.categoryName);
export const CategoryDescription = z
  .string()
  .trim()
  .min(1, 'Please enter Description')
  .max(rules.maxLength.categoryDescription);

/** Written to `category-{id}`. */
export const CategoryCreated = z.object({
  type: z.literal('CategoryCreated'),
  data: z.object({
    categoryId: Id,
    name: CategoryName,
    description: CategoryDescription,
    createdBy: Id,
    at: IsoTime,
  }),
});

/** Written with expected revision "no_stream" to the name's reservation stream: first writer wins. */
export const CategoryNameReserved = z.object({
  type: z.literal('CategoryNameReserved'),
  data: z.object({ categoryId: Id, name: CategoryName, at: IsoTime }),
});

export const CategoryEvent = z.discriminatedUnion('type', [CategoryCreated, CategoryNameReserved]);
export type CategoryCreated = z.infer<typeof CategoryCreated>;
export type CategoryNameReserved = z.infer<typeof CategoryNameReserved>;
export type CategoryEvent = z.infer<typeof CategoryEvent>;
