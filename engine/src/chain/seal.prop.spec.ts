import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventHash, genesisHash, verifyChain } from './hash-chain';
import { sealEvents } from './seal';

const numRuns = Number(process.env.FC_NUM_RUNS ?? 1000);

const datas = fc.oneof(
  fc.jsonValue(),
  fc.anything({
    withDate: true,
    withNullPrototype: true,
    withSparseArray: true,
    withObjectString: true,
  }),
);
const ids = fc.record({
  commandId: fc.string(),
  actorId: fc.string(),
  correlationId: fc.string(),
});

/** Ids as commands carry them (the metadata schema checks them). */
const commandIds = fc.record({
  commandId: fc.uuid(),
  actorId: fc.uuid(),
  correlationId: fc.uuid(),
});

describe('sealEvents writes each text once', () => {
  it('hands the store exactly JSON.stringify of data and metadata, and hashes as eventHash', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ type: fc.string(), data: datas }), { minLength: 1, maxLength: 4 }),
        ids,
        fc.integer({ min: -1, max: 1000 }),
        (events, commandIds, revision) => {
          const streamId = 'auction-x';
          const prevHash = genesisHash(`${streamId}-${revision}`);
          const { events: sealed, headHash } = sealEvents(
            streamId,
            revision,
            prevHash,
            events,
            commandIds,
          );
          let previous = prevHash;
          sealed.forEach((event, index) => {
            expect(event.dataJson).toBe(JSON.stringify(event.data) ?? 'null');
            expect(event.metadataJson).toBe(JSON.stringify(event.metadata));
            const { hash, ...rest } = event.metadata as { hash: string; prevHash: string };
            expect(rest.prevHash).toBe(previous);
            expect(hash).toBe(
              eventHash({
                streamId,
                revision: revision + 1 + index,
                type: event.type,
                data: event.data,
                metadata: rest as never,
              }),
            );
            previous = hash;
          });
          expect(headHash).toBe(previous);
        },
      ),
      { numRuns },
    );
  });

  it('seals a chain that verifies from the stored texts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 6 }),
        commandIds,
        (datas, command) => {
          const streamId = 'auction-y';
          const { events } = sealEvents(
            streamId,
            -1,
            genesisHash(streamId),
            datas.map((data) => ({ type: 'T', data })),
            command,
          );
          const stored = events.map((event, revision) => ({
            streamId,
            revision,
            type: event.type,
            data: JSON.parse(event.dataJson as string) as unknown,
            metadata: JSON.parse(event.metadataJson as string) as unknown,
          }));
          expect(verifyChain(streamId, stored)).toMatchObject({ ok: true, length: datas.length });
        },
      ),
      { numRuns: Math.ceil(numRuns / 4) },
    );
  });
});
