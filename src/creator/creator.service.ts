import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditService } from '../audit';
import { Role, type User } from '../auth';
import type { FilterQuery } from '@mikro-orm/core';
import type { CourseLevel, NewLesson } from '../courses';
import { assertQuiz, lessonBodyOf } from '../courses';
import type { CoursesService } from '../courses';
import { classify, type LessonText, lessonTexts, localizedTexts } from '../factory';
import { isId } from '../kernel/ids';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { NotificationType } from '../notifications';
import { averageScore, type CourseFigures } from '../progress';
import { CreatorCourse, CreatorLesson, CreatorMessage, DraftStatus } from './creator.entity';
import type { Localized } from '../kernel/localized';
import {
  courseNotEditable,
  courseNotInReview,
  invalidAges,
  invalidAnswerIndex,
  lessonLimitReached,
  noLessonsYet,
  onlyPublishedCourseHasLearners,
  unknownCourse,
  unknownLesson,
} from './creator.errors';

export interface DraftInput {
  title: Localized;
  description: Localized;
  level: CourseLevel;
  minAge: number;
  maxAge: number;
  language?: string | null;
}

export interface CourseAnalytics {
  draftId: string;
  courseId: string | null;
  title: Localized;
  status: DraftStatus;
  enrollments: number;
  completions: number;
  averageScore: number | null;
  /** Per currency; empty until the commerce area records sales. */
  earnings: { currency: string; amount: number }[];
}

const EDITABLE = [DraftStatus.draft, DraftStatus.rejected];

export class CreatorService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly courses: CoursesService,
    private readonly audit: AuditService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  findDraft(id: string): Promise<CreatorCourse | null> {
    return isId(id) ? this.em.findOne(CreatorCourse, { id }) : Promise.resolve(null);
  }

  /**
   * The courses among these ids that the viewer reads: their own (`creatorCourses`) and, for
   * content editors, those in review (`creatorReviewQueue`); the graph's `nodes`.
   */
  draftsByIds(viewer: User, ids: string[]): Promise<CreatorCourse[]> {
    return this.em.find(CreatorCourse, { id: { $in: ids.filter(isId) }, $or: this.readableBy(viewer) });
  }

  /** The lessons among these ids of the courses the viewer reads (as `draftsByIds`). */
  lessonsByIds(viewer: User, ids: string[]): Promise<CreatorLesson[]> {
    return this.em.find(CreatorLesson, { id: { $in: ids.filter(isId) }, draft: { $or: this.readableBy(viewer) } });
  }

  private readableBy(viewer: User): FilterQuery<CreatorCourse>[] {
    const reviewer = viewer.hasRole(Role.content_admin) || viewer.hasRole(Role.admin);
    return [{ creator: viewer.id }, ...(reviewer ? [{ status: DraftStatus.in_review }] : [])];
  }

  async lessonsOf(draftIds: string[]): Promise<Map<string, CreatorLesson[]>> {
    const rows = draftIds.length
      ? await this.em.find(CreatorLesson, { draft: { $in: draftIds } }, { orderBy: { position: 'asc' } })
      : [];
    const map = new Map<string, CreatorLesson[]>();
    for (const row of rows) map.set(row.draft.id, [...(map.get(row.draft.id) ?? []), row]);
    return map;
  }

  async create(creator: User, input: DraftInput): Promise<CreatorCourse> {
    assertAges(input.minAge, input.maxAge);
    const draft = this.em.create(CreatorCourse, {
      creator: creator.id,
      ...input,
      language: input.language ?? 'vi',
    });
    await this.em.flush();
    return draft;
  }

  mine(creator: User): Promise<CreatorCourse[]> {
    return this.em.find(CreatorCourse, { creator: creator.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Content admins: what waits for review, oldest submission first. */
  reviewQueue(): Promise<CreatorCourse[]> {
    return this.em.find(
      CreatorCourse,
      { status: DraftStatus.in_review },
      { orderBy: { submittedAt: 'asc', id: 'asc' }, limit: 100 },
    );
  }

  async update(id: string, change: Partial<DraftInput>): Promise<CreatorCourse> {
    const draft = await this.editable(id);
    const next = Object.fromEntries(
      Object.entries(change).filter(([, v]) => v !== undefined && v !== null),
    ) as Partial<DraftInput>;
    assertAges(next.minAge ?? draft.minAge, next.maxAge ?? draft.maxAge);
    this.em.assign(draft, next);
    await this.em.flush();
    return draft;
  }

  async addLesson(id: string, input: NewLesson): Promise<CreatorLesson> {
    assertQuiz(input.quiz, invalidAnswerIndex);
    return this.uow.transaction(async (em) => {
      const draft = await this.editable(id);
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`creator-lessons:${draft.id}`]);
      const count = await em.count(CreatorLesson, { draft });
      if (count >= 30) throw lessonLimitReached();
      const lesson = em.create(CreatorLesson, { ...lessonBodyOf(input), draft, position: count + 1 });
      await em.flush();
      return lesson;
    });
  }

  async updateLesson(id: string, lessonId: string, input: NewLesson): Promise<CreatorLesson> {
    assertQuiz(input.quiz, invalidAnswerIndex);
    const draft = await this.editable(id);
    const lesson = isId(lessonId) ? await this.em.findOne(CreatorLesson, { id: lessonId, draft }) : null;
    if (!lesson) throw unknownLesson();
    this.em.assign(lesson, lessonBodyOf(input));
    await this.em.flush();
    return lesson;
  }

  /** Sends the draft to review; the safety check's findings go with it for the reviewer. */
  async submit(id: string): Promise<CreatorCourse> {
    const draft = await this.editable(id);
    const lessons = (await this.lessonsOf([draft.id])).get(draft.id) ?? [];
    if (!lessons.length) throw noLessonsYet();
    draft.findings = classify(
      [...textsOfCourse(draft), ...lessons.flatMap((lesson) => lessonTexts(lesson, `lessons.${lesson.position}.`))],
      draft.minAge,
    );
    draft.status = DraftStatus.in_review;
    draft.submittedAt = new Date();
    draft.reviewReason = null;
    await this.em.flush();
    return draft;
  }

  /** Content admins: publishes the draft as a course (one transaction), tells the creator; audited. */
  async approve(reviewer: User, id: string, reason?: string | null): Promise<CreatorCourse> {
    const draft = await this.uow.transaction(async (em) => {
      const row = await this.inReview(id);
      const lessons = (await this.lessonsOf([row.id])).get(row.id) ?? [];
      const course = await this.courses.createCourse(
        {
          title: row.title,
          description: row.description,
          level: row.level,
          minAge: row.minAge,
          maxAge: row.maxAge,
          language: row.language,
          published: true,
          lessons,
        },
        row.creator.id,
      );
      await em.flush();
      em.assign(row, {
        status: DraftStatus.published,
        courseId: course.id,
        reviewReason: reason ?? null,
        reviewedBy: reviewer.id,
        reviewedAt: new Date(),
      });
      await em.flush();
      await this.audit.record({
        actor: reviewer,
        action: 'creator.course_approved',
        target: { type: 'creator_course', id: row.id },
        data: { courseId: course.id },
      });
      await this.tellCreator(
        row,
        { en: `"${row.title.en}" is published`, vi: `"${row.title.vi}" đã được xuất bản` },
        {
          en: 'Your course passed review and learners can enroll now.',
          vi: 'Khóa học của bạn đã được duyệt và học viên có thể đăng ký.',
        },
      );
      return row;
    });
    return draft;
  }

  async reject(reviewer: User, id: string, reason: string): Promise<CreatorCourse> {
    const draft = await this.uow.transaction(async (em) => {
      const row = await this.inReview(id);
      em.assign(row, {
        status: DraftStatus.rejected,
        reviewReason: reason.trim(),
        reviewedBy: reviewer.id,
        reviewedAt: new Date(),
      });
      await em.flush();
      await this.audit.record({
        actor: reviewer,
        action: 'creator.course_rejected',
        target: { type: 'creator_course', id: row.id },
        data: { reason: row.reviewReason },
      });
      await this.tellCreator(
        row,
        { en: `"${row.title.en}" needs changes`, vi: `"${row.title.vi}" cần chỉnh sửa` },
        { en: reason, vi: reason },
      );
      return row;
    });
    return draft;
  }

  /**
   * A creator_message notification to every learner enrolled in the published course (their settings decide).
   * A call, not an event: the answer is how many learners the notifications service did tell.
   */
  async message(creator: User, id: string, title: string, body: string): Promise<{ recipients: number }> {
    const draft = await this.findDraft(id);
    if (!draft) throw unknownCourse();
    if (draft.status !== DraftStatus.published || !draft.courseId) throw onlyPublishedCourseHasLearners();
    let recipients = 0;
    // A course's learners are in every region: each region's are told in a unit of work of their own region.
    for (const { services } of this.uow.deps.regions.map((view) => view.unit())) {
      for (const learnerId of await services.courses.learnerIdsOf(draft.courseId)) {
        const sent = await services.notifications.notify(learnerId, NotificationType.creator_message, {
          title: { en: title, vi: title },
          body: { en: body, vi: body },
          data: { courseId: draft.courseId, creatorId: creator.id },
        });
        if (sent) recipients++;
      }
    }
    this.em.create(CreatorMessage, { creator: creator.id, draft, title, body, recipients });
    await this.em.flush();
    return { recipients };
  }

  /** Per course of the creator: enrollments as the courses area counts them, learners who finished every lesson and the average best quiz score as progress does. */
  async analytics(creator: User): Promise<CourseAnalytics[]> {
    const drafts = await this.uow.query<{
      id: string;
      course_id: string | null;
      title: Localized;
      status: DraftStatus;
    }>(
      'select id, course_id, title, status from creator_courses where creator_id = ? order by created_at desc, id desc',
      [creator.id],
    );
    const published = drafts.flatMap((draft) => (draft.course_id ? [draft.course_id] : []));
    const figures = await this.figuresInEveryRegion(published);
    return drafts.map((draft) => {
      const course = draft.course_id ? figures.get(draft.course_id) : undefined;
      return {
        draftId: draft.id,
        courseId: draft.course_id,
        title: draft.title,
        status: draft.status,
        enrollments: course?.enrollments ?? 0,
        completions: course?.completions ?? 0,
        averageScore: course ? averageScore(course) : null,
        earnings: [],
      };
    });
  }

  /** A course's learners are in every region: each region's database counts its own, and the counts add up. */
  private async figuresInEveryRegion(
    courseIds: string[],
  ): Promise<Map<string, CourseFigures & { enrollments: number }>> {
    const parts = await Promise.all(
      this.uow.deps.regions.map(async (view) => {
        const { services } = view.unit();
        return Promise.all([services.courses.enrollmentCounts(courseIds), services.progress.courseFigures(courseIds)]);
      }),
    );
    const sum = new Map<string, CourseFigures & { enrollments: number }>();
    for (const [enrollments, figures] of parts)
      for (const id of courseIds) {
        const total = sum.get(id) ?? { enrollments: 0, completions: 0, bestScoreTotal: 0, bestScores: 0 };
        const here = figures.get(id);
        sum.set(id, {
          enrollments: total.enrollments + (enrollments.get(id) ?? 0),
          completions: total.completions + (here?.completions ?? 0),
          bestScoreTotal: total.bestScoreTotal + (here?.bestScoreTotal ?? 0),
          bestScores: total.bestScores + (here?.bestScores ?? 0),
        });
      }
    return sum;
  }

  private async editable(id: string): Promise<CreatorCourse> {
    const draft = await this.findDraft(id);
    if (!draft) throw unknownCourse();
    if (!EDITABLE.includes(draft.status)) throw courseNotEditable(draft.status);
    return draft;
  }

  private async inReview(id: string): Promise<CreatorCourse> {
    const draft = await this.findDraft(id);
    if (!draft) throw unknownCourse();
    if (draft.status !== DraftStatus.in_review) throw courseNotInReview(draft.status);
    return draft;
  }

  /** The review's decision, announced in its transaction: the notifications area delivers it after commit, once. */
  private async tellCreator(draft: CreatorCourse, title: Localized, body: Localized): Promise<void> {
    await this.uow.raise({
      type: 'notification.requested',
      recipients: [draft.creator.id],
      notificationType: NotificationType.system,
      message: { title, body, data: { creatorCourseId: draft.id, status: draft.status } },
    });
  }
}

function assertAges(minAge: number, maxAge: number): void {
  if (!(minAge >= 5 && minAge <= maxAge && maxAge <= 18)) throw invalidAges();
}

function textsOfCourse(draft: CreatorCourse): LessonText[] {
  return [...localizedTexts('course.title', draft.title), ...localizedTexts('course.description', draft.description)];
}
