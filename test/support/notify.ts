import type { NotificationType } from '../../src/notifications/notification.entity';
import { openUnit } from '../../src/server/platform';
import type { TestApp } from './app';
import { homeOf } from './regions';

/** What another area does when something happens to a user: the notifications service's notify(). */
export async function notify(
  t: TestApp,
  userId: string,
  type: NotificationType | string,
  n = 1,
  data: Record<string, unknown> = {},
) {
  const services = openUnit(await homeOf(t, userId)).services;
  const created = [];
  for (let i = 0; i < n; i++) {
    created.push(
      await services.notifications.notify(userId, type as NotificationType, {
        title: { en: `Title ${i}`, vi: `Tiêu đề ${i}` },
        body: { en: `Body ${i}`, vi: `Nội dung ${i}` },
        data: { index: i, ...data },
      }),
    );
  }
  return created;
}
