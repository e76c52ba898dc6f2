import { describe, expect, it } from 'vitest';
import type { BroadcastMessage } from './kafka-cluster';
import { POSITIONS_CHANNEL, PositionFeed } from './position-feed';

/** Two nodes' channels on one bus; each send stays in flight until the test lets it arrive. */
const bus = () => {
  const listeners = new Map<string, Set<(message: BroadcastMessage) => void>>();
  const inFlight: { from: string; message: BroadcastMessage; arrive: () => void }[] = [];
  const channel = (node: string) => ({
    broadcast: (message: BroadcastMessage) =>
      new Promise<void>((resolve) => {
        inFlight.push({
          from: node,
          message,
          arrive: () => {
            for (const [other, set] of listeners) {
              if (other !== node) for (const listener of set) listener(message);
            }
            resolve();
          },
        });
      }),
    onBroadcast: (listener: (message: BroadcastMessage) => void) => {
      const set = listeners.get(node) ?? new Set();
      listeners.set(node, set.add(listener));
      return () => set.delete(listener);
    },
  });
  /** Delivers the oldest message in flight, and lets its sender's `finally` run. */
  const deliver = async () => {
    inFlight.shift()?.arrive();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { channel, inFlight, deliver };
};

describe('the position feed', () => {
  it('keeps one message in flight per node, the next carrying the highest positions', async () => {
    const { channel, inFlight, deliver } = bus();
    const a = new PositionFeed(channel('a'));
    const b = new PositionFeed(channel('b'));
    const logs: number[] = [];
    const checkpoints: [string, number][] = [];
    b.onLog((position) => logs.push(position));
    b.onCheckpoint((name, position) => checkpoints.push([name, position]));

    a.logCommitted(3);
    for (const position of [5, 9, 7]) a.logCommitted(position);
    a.checkpointCommitted('catalog', 4);
    a.checkpointCommitted('catalog', 8);
    a.checkpointCommitted('activity', 6);
    expect(inFlight).toHaveLength(1);
    expect(inFlight[0]?.message).toEqual({ channel: POSITIONS_CHANNEL, data: { log: 3 } });

    await deliver();
    expect(logs).toEqual([3]);
    expect(inFlight.map(({ message }) => message.data)).toEqual([
      { log: 9, checkpoints: { catalog: 8, activity: 6 } },
    ]);
    await deliver();
    expect(logs).toEqual([3, 9]);
    expect(checkpoints).toEqual([
      ['catalog', 8],
      ['activity', 6],
    ]);
    // Nothing new: nothing sent.
    expect(inFlight).toHaveLength(0);
    expect(a.counts().sent).toBe(2);
  });

  it('ignores malformed messages and other channels', () => {
    const { channel } = bus();
    const listeners: ((message: BroadcastMessage) => void)[] = [];
    const feed = new PositionFeed({
      ...channel('b'),
      onBroadcast: (listener) => {
        listeners.push(listener);
        return () => undefined;
      },
    });
    const heard: unknown[] = [];
    feed.onLog((position) => heard.push(position));
    feed.onCheckpoint((name, position) => heard.push([name, position]));
    const malformed = [
      null,
      'x',
      { log: -1 },
      { log: 1.5 },
      { log: '7' },
      { checkpoints: { catalog: 'x' } },
      { checkpoints: [1] },
      { checkpoints: { '': 3 } },
    ];
    for (const data of malformed) listeners[0]?.({ channel: POSITIONS_CHANNEL, data });
    listeners[0]?.({ channel: 'sessions', data: { log: 4 } });
    expect(heard).toEqual([]);
    expect(feed.counts().ignored).toBe(malformed.length);
    listeners[0]?.({ channel: POSITIONS_CHANNEL, data: { log: 4, checkpoints: { catalog: 2 } } });
    expect(heard).toEqual([4, ['catalog', 2]]);
  });

  it('a failed send loses nothing it cannot find again: the next commit goes out', async () => {
    let fail = true;
    const sent: unknown[] = [];
    const feed = new PositionFeed(
      {
        broadcast: (message) => {
          sent.push(message.data);
          return fail ? Promise.reject(new Error('broker gone')) : Promise.resolve();
        },
        onBroadcast: () => () => undefined,
      },
      { log: () => undefined },
    );
    feed.logCommitted(1);
    await new Promise((resolve) => setImmediate(resolve));
    fail = false;
    feed.logCommitted(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([{ log: 1 }, { log: 2 }]);
  });
});
