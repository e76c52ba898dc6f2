/**
 * The projections' thread (a `node:worker_threads` Worker started by `ProjectionThread`): opens
 * its own connections to the event log and the read store from the server's settings, runs the
 * `ProjectionRunner` over them, and talks to the request thread by messages (`protocol.ts`).
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { ProjectionRunner, allProjections } from '@auction/projections';
import { openLogAndReadModels } from '../open-log';
import { type FromThread, type ThreadData, type ToThread, posted } from './protocol';

const port = parentPort;
if (!port) throw new Error('projection-worker.ts runs as a worker thread only');
const data = workerData as ThreadData;
const post = (message: FromThread): void => port.postMessage(message);
/** Set by `start`: puts of documents at or before it are history (see the protocol). */
let newsAfter = Number.MAX_SAFE_INTEGER;

// Messages wait here until the stores are open (they arrive in order, so none is lost).
const opened = openLogAndReadModels(data.stores, {
  ...(data.clusterLogPollMs === undefined ? {} : { clusterLogPollMs: data.clusterLogPollMs }),
});
const running = opened.then((stores) => ({
  stores,
  runner: new ProjectionRunner({
    source: stores.events,
    store: stores.read,
    projections: allProjections,
    onError: (error, name) => post({ type: 'error', name, error: posted(error) }),
    onCommitted: (name, writes, position) =>
      post({
        type: 'committed',
        name,
        // What the catch-up re-creates from history is not news: it stays here.
        writes: writes.filter((write) => write.kind !== 'put' || write.doc._position > newsAfter),
        position,
        threadId,
      }),
    onPosition: (name, position) => post({ type: 'position', name, position }),
    ...(data.lease ? { lease: data.lease } : {}),
  }),
}));

let stopping: Promise<void> | undefined;

const handle = async (message: ToThread): Promise<void> => {
  if (message.type === 'fault') {
    setImmediate(() => {
      if (message.fault === 'crash') throw new Error('The read models’ thread crashed (test seam)');
      // Holds the thread as a batch that never ends would.
      for (;;);
    });
    return;
  }
  if (message.type === 'start') {
    newsAfter = message.newsAfter;
    try {
      const { runner } = await running;
      await runner.start();
      post({ type: 'started' });
    } catch (error) {
      post({ type: 'startFailed', error: posted(error) });
    }
    return;
  }
  if (message.type === 'stop') {
    stopping ??= (async () => {
      const { runner, stores } = await running;
      await runner.stop();
      await stores.close();
    })();
    // Stopped even if closing failed: the request thread ends the thread either way.
    await stopping.catch(() => undefined);
    post({ type: 'stopped' });
    return;
  }
  if (message.type === 'status' || message.type === 'rebuild') {
    try {
      const { runner } = await running;
      if (message.type === 'status')
        post({ type: 'status', id: message.id, status: await runner.status() });
      else {
        await runner.rebuild(message.names);
        post({ type: 'reply', id: message.id });
      }
    } catch (error) {
      post({ type: 'reply', id: message.id, error: posted(error) });
    }
    return;
  }
  const { stores, runner } = await running;
  switch (message.type) {
    case 'appended':
      stores.events.appendedElsewhere?.(message.position);
      return;
    case 'followed':
      runner.followedCheckpoint(message.name, message.position);
      return;
    case 'wait':
      // Resolves through `onPosition`; the request thread keeps its own deadline.
      runner.waitFor(message.position, message.names, message.ms).catch(() => undefined);
      return;
  }
};

port.on('message', (message: ToThread) => {
  handle(message).catch((error: unknown) => {
    // Only the stores failing to open lands here (the handlers catch their own): reported once
    // per message, with no projection to name.
    post({ type: 'error', name: '(thread)', error: posted(error) });
  });
});
