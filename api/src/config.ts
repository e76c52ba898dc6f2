import { resolve } from 'node:path';
import { z } from 'zod';

/** Every setting the server and its command-line tools read, parsed once from the environment. */
export const Config = z.object({
  /** HTTP port. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** Where the embedded stores keep their files. */
  DATA_DIR: z
    .string()
    .min(1)
    .default('./data')
    .transform((dir) => resolve(dir)),
});
export type Config = z.infer<typeof Config>;

/** Parses the environment; throws one error that lists every bad setting. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = Config.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
};
