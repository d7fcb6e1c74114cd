import type { EventHandlers } from '../kernel/events';
import { NotificationType } from './notification.entity';

/** What other areas' events tell the people concerned: the learner and their active guardians. */
export const notificationReactions: EventHandlers = {
  'notification.requested': async ({ recipients, notificationType, message, onceWhileUnread }, services) => {
    // Named by its value in the event (see DomainEvents), which is exactly one of the enum's.
    const type = notificationType as NotificationType;
    for (const userId of new Set(recipients)) {
      if (onceWhileUnread) await services.notifications.notifyOnceWhileUnread(userId, type, message);
      else await services.notifications.notify(userId, type, message);
    }
  },

  'notification.requested_with_guardians': async ({ learnerId, notificationType, learner, guardian }, services) => {
    await services.notifications.notifyWithGuardians(learnerId, notificationType as NotificationType, {
      learner,
      guardian,
    });
  },

  'guardian.link_requested': async ({ learnerId, linkId, guardianId, guardianName }, services) => {
    await services.notifications.notify(learnerId, NotificationType.guardian, {
      title: { en: `${guardianName} asks to be your guardian`, vi: `${guardianName} muốn làm người giám hộ của bạn` },
      body: { en: 'Approve the request to link your accounts.', vi: 'Hãy chấp nhận yêu cầu để liên kết tài khoản.' },
      data: { linkId, guardianId },
    });
  },

  'certificate.issued': async (event, services) => {
    const { learnerName, courseTitle, certificateId, courseId, code } = event;
    await services.notifications.notifyWithGuardians(event.learnerId, NotificationType.certificate, {
      learner: {
        title: { en: 'You earned a certificate!', vi: 'Bạn đã nhận chứng chỉ!' },
        body: {
          en: `Well done on finishing "${courseTitle.en}".`,
          vi: `Chúc mừng bạn đã hoàn thành "${courseTitle.vi}".`,
        },
        data: { certificateId, courseId, code },
      },
      guardian: {
        title: { en: `${learnerName} earned a certificate`, vi: `${learnerName} đã nhận chứng chỉ` },
        body: {
          en: `${learnerName} finished "${courseTitle.en}".`,
          vi: `${learnerName} đã hoàn thành "${courseTitle.vi}".`,
        },
        data: { certificateId, courseId },
      },
    });
  },
};
