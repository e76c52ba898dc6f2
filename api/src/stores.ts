import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@auction/engine';
import { SqliteReadStore } from '@auction/projections';
import type { Config } from './config';

/** The embedded stores under DATA_DIR: the event log and the read models. */
export const openEmbeddedStores = (config: Pick<Config, 'DATA_DIR'>) => {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const events = new SqliteEventStore({ filename: join(config.DATA_DIR, 'events.sqlite') });
  const read = new SqliteReadStore({ filename: join(config.DATA_DIR, 'read.sqlite') });
  return {
    events,
    read,
    close: async () => {
      await read.close();
      await events.close();
    },
  };
};
