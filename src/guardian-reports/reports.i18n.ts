import i18next, { type TFunction } from 'i18next';

/** The message catalogs of the report mails; texts come from here, never from string literals in code. */
const resources = {
  en: {
    reports: {
      weekly: { subject: "{{learner}}'s week of learning", intro: 'Here is what {{learner}} did between {{from}} and {{to}}.' },
      monthly: { subject: "{{learner}}'s month of learning", intro: 'Here is what {{learner}} did in {{period}}.' },
      inactivity: { subject: '{{learner}} has not learned for 7 days', intro: '{{learner}} has not opened a lesson since {{since}}. A little encouragement may help.' },
      activity_one: '{{count}} lesson or quiz',
      activity_other: '{{count}} lessons and quizzes',
      chartTitle: 'Activity per day',
      unsubscribe: 'To stop these mails: {{url}}',
      unsubscribed: 'You will no longer receive these reports.',
    },
  },
  vi: {
    reports: {
      weekly: { subject: 'Tuần học của {{learner}}', intro: 'Đây là những gì {{learner}} đã học từ {{from}} đến {{to}}.' },
      monthly: { subject: 'Tháng học của {{learner}}', intro: 'Đây là những gì {{learner}} đã học trong {{period}}.' },
      inactivity: { subject: '{{learner}} đã không học 7 ngày', intro: '{{learner}} chưa mở bài học nào từ {{since}}. Một lời động viên có thể giúp ích.' },
      activity_other: '{{count}} bài học và bài kiểm tra',
      chartTitle: 'Hoạt động mỗi ngày',
      unsubscribe: 'Để ngừng nhận thư này: {{url}}',
      unsubscribed: 'Bạn sẽ không nhận các báo cáo này nữa.',
    },
  },
};

const instance = i18next.createInstance();
void instance.init({ resources, fallbackLng: 'en', ns: ['reports'], defaultNS: 'reports', initAsync: false, interpolation: { escapeValue: false } });

export function translator(locale: string): TFunction {
  return instance.getFixedT(locale === 'vi' ? 'vi' : 'en', 'reports');
}
