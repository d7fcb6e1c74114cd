import type { UnitOfWork } from '../kernel/unit-of-work';
import type { NotificationMessage, NotificationType } from '../notifications';

/** A notification written with the change (the notifications area delivers it after commit). */
export function notify(
  uow: UnitOfWork,
  recipients: string[],
  notificationType: NotificationType,
  message: NotificationMessage,
): Promise<void> {
  return uow.raise({ type: 'notification.requested', recipients, notificationType, message });
}
