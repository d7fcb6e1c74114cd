import type { TFunction } from 'i18next';
import { defineMessages } from '../mail/messages';

/** The catalog of the report mails (namespace `reports` of the mail catalogs); texts come from here, never from string literals in code. */
const texts = defineMessages('reports', {
  en: {
    weekly: {
      subject: "{{learner}}'s week of learning",
      intro: 'Here is what {{learner}} did between {{from}} and {{to}}.',
    },
    monthly: { subject: "{{learner}}'s month of learning", intro: 'Here is what {{learner}} did in {{period}}.' },
    inactivity: {
      subject: '{{learner}} has not learned for 7 days',
      intro: '{{learner}} has not opened a lesson since {{since}}. A little encouragement may help.',
    },
    activity_one: '{{count}} lesson or quiz',
    activity_other: '{{count}} lessons and quizzes',
    chartTitle: 'Activity per day',
    unsubscribe: 'To stop these mails: {{url}}',
    unsubscribed: 'You will no longer receive these reports.',
  },
  vi: {
    weekly: {
      subject: 'Tuần học của {{learner}}',
      intro: 'Đây là những gì {{learner}} đã học từ {{from}} đến {{to}}.',
    },
    monthly: { subject: 'Tháng học của {{learner}}', intro: 'Đây là những gì {{learner}} đã học trong {{period}}.' },
    inactivity: {
      subject: '{{learner}} đã không học 7 ngày',
      intro: '{{learner}} chưa mở bài học nào từ {{since}}. Một lời động viên có thể giúp ích.',
    },
    activity_other: '{{count}} bài học và bài kiểm tra',
    chartTitle: 'Hoạt động mỗi ngày',
    unsubscribe: 'Để ngừng nhận thư này: {{url}}',
    unsubscribed: 'Bạn sẽ không nhận các báo cáo này nữa.',
  },
});

export function translator(locale: string): TFunction {
  return texts(locale);
}
