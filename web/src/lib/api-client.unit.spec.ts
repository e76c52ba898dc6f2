import { describe, expect, it } from 'vitest';
import { READ_MODELS_BEHIND_HEADER } from '@auction/contracts';
import { z } from 'zod';
import { type ApiAnswer, apiStandInPerTest, ok, refused } from '../testing/api-stand-in';
import { behindRetry, call } from './api-client';

/**
 * `call` against a real HTTP server on an ephemeral port of 127.0.0.1 (the stand-in), which marks
 * its answers `Read-Models-Behind` as the API does when a read's wait for the client's last write
 * runs out: a marked GET is asked again and the latest answer wins; a write is never repeated.
 */
const standIn = apiStandInPerTest();

const Price = z.object({ price: z.number() });
const marked = (price: number): ApiAnswer => ({
  ...ok({ price }),
  headers: { [READ_MODELS_BEHIND_HEADER]: 'catalog, watchlist' },
});

describe('a read answered marked Read-Models-Behind', () => {
  it('is asked again until an answer is not marked, and that answer is used', async () => {
    let answered = 0;
    standIn().answer = () => (++answered <= 2 ? marked(150) : ok({ price: 120 }));
    const result = await call('/auction/fetchSpecificAuction', Price, {
      query: { auctionId: 'a1' },
    });
    expect(result.price).toBe(120);
    expect(result.behind).toBeUndefined();
    expect(standIn().requests.map((request) => request.method)).toEqual(['GET', 'GET', 'GET']);
    expect(standIn().requests.every((request) => request.query.get('auctionId') === 'a1')).toBe(
      true,
    );
  });

  it('gives up within its budget, with the last answer and the read models still behind', async () => {
    let answered = 0;
    standIn().answer = () => marked(++answered);
    const started = Date.now();
    const result = await call('/auction/fetchSpecificAuction', Price);
    const elapsed = Date.now() - started;
    // The last answer, still marked: the page shows it and can say it is catching up.
    expect(result.price).toBe(standIn().requests.length);
    expect(result.behind).toEqual(['catalog', 'watchlist']);
    // 250 + 500 + 1000 + 2000 + 2000 ms apart at most, never past the budget.
    expect(standIn().requests.length).toBeGreaterThanOrEqual(3);
    expect(standIn().requests.length).toBeLessThanOrEqual(6);
    expect(elapsed).toBeGreaterThanOrEqual(behindRetry.firstDelayMs * 7);
    expect(elapsed).toBeLessThan(behindRetry.budgetMs + 2000);
  }, 15_000);

  it('keeps the marked answer when a retry fails', async () => {
    let answered = 0;
    standIn().answer = () => (++answered === 1 ? marked(150) : refused(503, 'Unavailable'));
    const result = await call('/auction/fetchSpecificAuction', Price);
    expect(result).toMatchObject({ price: 150, behind: ['catalog', 'watchlist'] });
    expect(standIn().requests).toHaveLength(2);
  });

  it('stops asking when its signal aborts', async () => {
    standIn().answer = () => marked(150);
    const controller = new AbortController();
    const result = call('/auction/fetchSpecificAuction', Price, { signal: controller.signal });
    const settled = expect(result).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => standIn().requests.length).toBe(1);
    controller.abort();
    await settled;
    // Longer than the first pause: no retry went out after the abort.
    await new Promise((resolve) => setTimeout(resolve, behindRetry.firstDelayMs * 2));
    expect(standIn().requests).toHaveLength(1);
  });

  it('is not repeated when it is a write', async () => {
    standIn().answer = () => marked(150);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const result = await call('/bid/editBid/b1', Price, { method, json: { bidAmount: 1 } });
      expect(result.behind).toEqual(['catalog', 'watchlist']);
    }
    expect(standIn().requests.map((request) => request.method)).toEqual([
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
    ]);
  });

  it('an answer not marked is used at once', async () => {
    standIn().answer = () => ok({ price: 120 });
    const result = await call('/auction/fetchSpecificAuction', Price);
    expect(result).toEqual({ success: true, message: '', price: 120 });
    expect(standIn().requests).toHaveLength(1);
  });
});
