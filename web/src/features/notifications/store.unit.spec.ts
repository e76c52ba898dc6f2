import type { NotificationView } from '@auction/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { type ApiRequest, apiStandInPerTest, ok, refused } from '../../testing/api-stand-in';
import { unreadCount, useNotifications } from './store';

const AT = '2030-01-02T03:04:05.678Z';
const note = (id: string, isRead = false): NotificationView => ({
  _id: id,
  message: `Notification ${id}`,
  timestamp: AT,
  isRead,
  auctionId: null,
});
const ids = () => useNotifications.getState().items.map((item) => item._id);
const store = () => useNotifications.getState();

const api = apiStandInPerTest();
/** The server's list: the page for each cursor (undefined: the first). */
let pages: Map<string | undefined, { data: NotificationView[]; nextCursor: string | null }>;
const listed = (request: ApiRequest) => {
  const page = pages.get(request.query.get('cursor') ?? undefined);
  return page ? ok(page) : refused(400, 'Invalid cursor');
};

beforeEach(() => {
  pages = new Map([
    [undefined, { data: [note('n5'), note('n4', true)], nextCursor: 'c1' }],
    ['c1', { data: [note('n4', true), note('n3')], nextCursor: 'c2' }],
    ['c2', { data: [note('n1', true)], nextCursor: null }],
  ]);
  api().answer = listed;
  store().reset();
  vi.spyOn(notify, 'error');
});

describe('the notifications store', () => {
  it('fetch loads the newest page and the cursor of the next', async () => {
    await store().fetch();
    expect(ids()).toEqual(['n5', 'n4']);
    expect(store().nextCursor).toBe('c1');
    expect(api().requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /auction/notifications',
    ]);
  });

  it('loadMore appends the next pages (a notification already listed kept once), then stops', async () => {
    await store().fetch();
    await store().loadMore();
    expect(api().requests.at(-1)?.query.get('cursor')).toBe('c1');
    expect(ids()).toEqual(['n5', 'n4', 'n3']);
    await store().loadMore();
    expect(ids()).toEqual(['n5', 'n4', 'n3', 'n1']);
    expect(store().nextCursor).toBeNull();
    await store().loadMore();
    expect(api().requests).toHaveLength(3);
    expect(store().loadingMore).toBe(false);
  });

  it('asks for one page at a time', async () => {
    await store().fetch();
    await Promise.all([store().loadMore(), store().loadMore()]);
    expect(api().requests).toHaveLength(2);
    expect(ids()).toEqual(['n5', 'n4', 'n3']);
  });

  it('drops a page that arrives after a refetch started the list again', async () => {
    await store().fetch();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api().answer = async (request) => {
      if (request.query.get('cursor') === 'c1') await held;
      return listed(request);
    };
    const loading = store().loadMore();
    await vi.waitFor(() => expect(api().requests).toHaveLength(2));
    // A new notification: the first page is another now.
    pages.set(undefined, { data: [note('n6'), note('n5')], nextCursor: 'c0' });
    await store().fetch();
    release();
    await loading;
    expect(ids()).toEqual(['n6', 'n5']);
    expect(store().nextCursor).toBe('c0');
    expect(store().loadingMore).toBe(false);
  });

  it('a page that fails keeps what is loaded and says so', async () => {
    await store().fetch();
    api().answer = () => refused(500, 'Something went wrong');
    await store().loadMore();
    expect(ids()).toEqual(['n5', 'n4']);
    expect(store().nextCursor).toBe('c1');
    expect(store().loadingMore).toBe(false);
    await store().fetch();
    expect(ids()).toEqual(['n5', 'n4']);
    expect(notify.error).toHaveBeenCalledTimes(2);
    expect(notify.error).toHaveBeenCalledWith('Failed to display notifications');
  });

  it('markAllRead marks them on the server, then fetches the list again', async () => {
    await store().fetch();
    api().answer = (request) => {
      if (request.method === 'PATCH') {
        for (const page of pages.values()) page.data = page.data.map(({ _id }) => note(_id, true));
        return ok();
      }
      return listed(request);
    };
    await store().markAllRead();
    expect(
      api()
        .requests.slice(1)
        .map(({ method, path }) => `${method} ${path}`),
    ).toEqual(['PATCH /auction/notifications/mark-read', 'GET /auction/notifications']);
    expect(unreadCount(store().items)).toBe(0);
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('markAllRead that fails says so and still shows the list as the server has it', async () => {
    api().answer = (request) =>
      request.method === 'PATCH' ? refused(503, 'Busy') : listed(request);
    await store().markAllRead();
    expect(notify.error).toHaveBeenCalledWith('Failed to read notifications');
    expect(ids()).toEqual(['n5', 'n4']);
    expect(unreadCount(store().items)).toBe(1);
  });

  it('clearAll deletes them, closes the panel and fetches the empty list', async () => {
    await store().fetch();
    store().toggle();
    api().answer = (request) => {
      if (request.method !== 'DELETE') return listed(request);
      pages = new Map([[undefined, { data: [], nextCursor: null }]]);
      return ok();
    };
    await store().clearAll();
    expect(
      api()
        .requests.slice(1)
        .map(({ method, path }) => `${method} ${path}`),
    ).toEqual(['DELETE /auction/notifications/clear', 'GET /auction/notifications']);
    expect(store().open).toBe(false);
    expect(ids()).toEqual([]);
    expect(store().nextCursor).toBeNull();
  });

  it('clearAll that fails keeps the panel open and says so', async () => {
    await store().fetch();
    store().toggle();
    api().answer = (request) =>
      request.method === 'DELETE' ? refused(500, 'Something went wrong') : listed(request);
    await store().clearAll();
    expect(store().open).toBe(true);
    expect(ids()).toEqual(['n5', 'n4']);
    expect(notify.error).toHaveBeenCalledWith('Failed to delete notifications');
  });

  it('unreadCount counts the unread', () => {
    expect(unreadCount([])).toBe(0);
    expect(unreadCount([note('a'), note('b', true), note('c')])).toBe(2);
  });
});
