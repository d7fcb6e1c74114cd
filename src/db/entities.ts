import { RoleChange } from '../admin/role-change.entity';
import { AiUsage } from '../ai/ai-usage.entity';
import { AccountToken } from '../auth/account-token.entity';
import { RefreshToken } from '../auth/refresh-token.entity';
import { User } from '../auth/user.entity';
import { Certificate } from '../certificates/certificate.entity';
import { Course, Enrollment, Lesson } from '../courses/course.entity';
import { CourseGeneration, GenerationLesson, GenerationStage } from '../factory/generation.entity';
import { LessonCompletion, QuizAttempt } from '../progress/progress.entity';
import { Consent, ConsentLedgerEntry } from '../consent/consent.entity';
import { CountryPolicyChange, CountryPolicyOverride } from '../country-policy/country-policy.entity';
import { LearnerAiAccess } from '../guardian/ai-access.entity';
import { GuardianLink, GuardianLinkTransition } from '../guardian/guardian-link.entity';
import { Notification } from '../notifications/notification.entity';
import { NotificationSettings } from '../notifications/notification-settings.entity';

/** Every entity of every area: MikroORM discovers them from this list, not from the file system. */
export const entities = [
  User, RefreshToken, AccountToken, RoleChange, Notification, NotificationSettings,
  GuardianLink, GuardianLinkTransition, LearnerAiAccess, Consent, ConsentLedgerEntry, CountryPolicyOverride, CountryPolicyChange,
  AiUsage, Course, Lesson, Enrollment, LessonCompletion, QuizAttempt, Certificate,
  CourseGeneration, GenerationStage, GenerationLesson,
];
