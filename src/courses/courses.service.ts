import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AGE } from '../kernel/limits';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { ageOn } from '../auth';
import { Role, type User } from '../auth';
import { validationFailed } from '../kernel/errors';
import { isId } from '../kernel/ids';
import { decodeCursor, type Page, toPage } from '../kernel/pagination';
import { Course, type CourseLevel, Enrollment, Lesson } from './course.entity';
import type { Localized } from '../kernel/localized';
import {
  alreadyEnrolled,
  invalidAnswerIndex,
  publishWithoutLessons,
  unknownCourse,
  unknownEnrollment,
  unknownLesson,
} from './courses.errors';
import { assertQuiz, lessonBodyOf, type NewLesson } from './lesson-body';

export interface NewCourse {
  title: Localized;
  description: Localized;
  level: CourseLevel;
  minAge: number;
  maxAge: number;
  language: string;
  passMark?: number;
  published?: boolean;
  /** In order; a draft's or a generation's own lessons may be handed as they are: only their texts and quizzes are copied. */
  lessons: readonly NewLesson[];
}

/** A change to a course: a field left out or null stays as it is. */
export type CourseChange = { [K in keyof Omit<NewCourse, 'lessons' | 'published'>]?: NewCourse[K] | null };

/** A course as the catalog lists it: its stored fields, without an entity (nothing writes it). */
export type CatalogCourse = Omit<Course, 'createdBy'>;

function catalogCourse(row: Record<string, unknown>): CatalogCourse {
  return {
    id: row.id as string,
    title: row.title as Localized,
    description: row.description as Localized,
    level: row.level as CourseLevel,
    minAge: Number(row.min_age),
    maxAge: Number(row.max_age),
    language: row.language as string,
    passMark: Number(row.pass_mark),
    published: Boolean(row.published),
    createdAt: new Date(row.created_at as string),
    updatedAt: new Date(row.updated_at as string),
  };
}

/** An enrollment as progress reads it: whose, and the course's id and title. */
export interface EnrolledCourse {
  learnerId: string;
  course: { id: string; title: Localized };
}

export interface CatalogFilter {
  level?: CourseLevel | null;
  age?: number | null;
  language?: string | null;
  text?: string | null;
}

const isStaff = (user: User | null) => Boolean(user && (user.hasRole(Role.content_admin) || user.hasRole(Role.admin)));

export class CoursesService {
  constructor(private readonly uow: UnitOfWork) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /**
   * Published courses; by default those that fit a young learner's age. An adult learner sees every
   * course (courses are for ages up to 18: filtering by an adult's age left the catalog empty).
   */
  async catalog(
    viewer: User | null,
    filter: CatalogFilter,
    first: number,
    after?: string | null,
  ): Promise<Page<CatalogCourse>> {
    const ownAge = viewer?.hasRole(Role.learner) && viewer.birthDate ? ageOn(viewer.birthDate) : null;
    const age = filter.age ?? (ownAge !== null && ownAge < AGE.adult ? ownAge : null);
    // One statement written here, its rows read as they are: the query builder, then mapping the
    // rows to entities, each cost more than the statement (a catalog page is read on every visit).
    const where: string[] = ['c.published = true'];
    const params: unknown[] = [];
    const and = (condition: string, ...values: unknown[]) => {
      where.push(condition);
      params.push(...values);
    };
    if (filter.level) and('c.level = ?', filter.level);
    if (filter.language) and('c.language = ?', filter.language);
    if (age !== null) and('c.min_age <= ? and c.max_age >= ?', age, age);
    if (filter.text) {
      const like = `%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      and(
        "(c.title->>'en' ilike ? or c.title->>'vi' ilike ? or c.description->>'en' ilike ? or c.description->>'vi' ilike ?)",
        like,
        like,
        like,
        like,
      );
    }
    const matching = where.join(' and ');
    const countParams = [...params];
    const count = async () =>
      (
        await this.uow.query<{ n: number }>(
          `select count(*)::int as n from courses as c where ${matching}`,
          countParams,
        )
      )[0].n;
    if (after) {
      const { createdAt, id } = decodeCursor(after);
      and('(c.created_at < ? or (c.created_at = ? and c.id < ?))', createdAt, createdAt, id);
    }
    const rows = await this.uow.query<Record<string, unknown>>(
      `select c.* from courses as c where ${where.join(' and ')} order by c.created_at desc, c.id desc limit ?`,
      [...params, first + 1],
    );
    return toPage(rows.map(catalogCourse), first, after, count);
  }

  /** A published course, or any course for its editors; otherwise not found. */
  async course(viewer: User | null, id: string): Promise<Course> {
    const course = isId(id) ? await this.em.findOne(Course, { id }) : null;
    if (!course || (!course.published && !isStaff(viewer))) throw unknownCourse();
    return course;
  }

  /** The courses among these ids the viewer may see, as `course` reads one (the graph's `nodes`). */
  async coursesByIds(viewer: User | null, ids: string[]): Promise<Course[]> {
    const rows = await this.em.find(Course, { id: { $in: ids.filter(isId) } });
    return rows.filter((course) => course.published || isStaff(viewer));
  }

  /** The lessons of published courses among these ids, as `lesson` reads one. */
  async lessonsByIds(ids: string[]): Promise<Lesson[]> {
    const rows = await this.em.find(Lesson, { id: { $in: ids.filter(isId) } }, { populate: ['course'] });
    return rows.filter((lesson) => lesson.course.published);
  }

  lessons(courseId: string): Promise<Lesson[]> {
    return this.uow.children(
      'courses.lessons',
      courseId,
      (courses) => this.em.find(Lesson, { course: { $in: courses } }, { orderBy: { position: 'asc' } }),
      (lesson) => lesson.course.id,
    );
  }

  /** Lessons of many courses in one query, by course. */
  async lessonsOf(courseIds: string[]): Promise<Map<string, Lesson[]>> {
    const lessons = courseIds.length
      ? await this.em.find(Lesson, { course: { $in: courseIds } }, { orderBy: { position: 'asc' } })
      : [];
    const byCourse = new Map<string, Lesson[]>(courseIds.map((id) => [id, []]));
    for (const lesson of lessons) byCourse.get(lesson.course.id)?.push(lesson);
    return byCourse;
  }

  /**
   * The published lesson of this id, or null: what one request asks for before its next tick is read in
   * one statement (the rules of `nodes(ids:)` check each lesson's course).
   */
  publishedLesson(id: string): Promise<Lesson | null> {
    return this.uow.byId('courses.publishedLesson', id, (ids) => this.lessonsByIds(ids));
  }

  async lesson(id: string): Promise<Lesson> {
    const lesson = isId(id) ? await this.em.findOne(Lesson, { id }, { populate: ['course'] }) : null;
    if (!lesson || !lesson.course.published) throw unknownLesson();
    return lesson;
  }

  /** One transaction: the course and its lessons in order (the course factory publishes through this). */
  async createCourse(input: NewCourse, authorId: string | null): Promise<Course> {
    assertCourse(input);
    return this.uow.transaction(async (em) => {
      const course = em.create(Course, {
        title: input.title,
        description: input.description,
        level: input.level,
        minAge: input.minAge,
        maxAge: input.maxAge,
        language: input.language,
        passMark: input.passMark ?? 70,
        published: input.published ?? false,
        createdBy: authorId ?? null,
      });
      input.lessons.forEach((lesson, index) =>
        em.create(Lesson, { ...lessonBodyOf(lesson), course, position: index + 1 }),
      );
      return course;
    });
  }

  async updateCourse(viewer: User, id: string, change: CourseChange): Promise<Course> {
    const course = await this.course(viewer, id);
    const next = {
      ...course,
      ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined && v !== null)),
    };
    assertCourse({ ...next, lessons: [] });
    this.em.assign(course, next);
    await this.em.flush();
    return course;
  }

  async setPublished(viewer: User, id: string, published: boolean): Promise<Course> {
    const course = await this.course(viewer, id);
    if (published && (await this.em.count(Lesson, { course })) === 0) throw publishWithoutLessons();
    course.published = published;
    await this.em.flush();
    return course;
  }

  async addLesson(viewer: User, courseId: string, lesson: NewLesson): Promise<Lesson> {
    const course = await this.course(viewer, courseId);
    assertQuiz(lesson.quiz, (question) => invalidAnswerIndex(0, question));
    const position = (await this.em.count(Lesson, { course })) + 1;
    const created = this.em.create(Lesson, { ...lessonBodyOf(lesson), course, position });
    await this.em.flush();
    return created;
  }

  /** Replaces a lesson's texts and quiz; attempts already made keep their scores. */
  async updateLesson(viewer: User, courseId: string, lessonId: string, lesson: NewLesson): Promise<Lesson> {
    const course = await this.course(viewer, courseId);
    const found = isId(lessonId) ? await this.em.findOne(Lesson, { id: lessonId, course }) : null;
    if (!found) throw unknownLesson();
    assertQuiz(lesson.quiz, (question) => invalidAnswerIndex(0, question));
    this.em.assign(found, lessonBodyOf(lesson));
    await this.em.flush();
    return found;
  }

  async enroll(learner: User, courseId: string): Promise<Enrollment> {
    const course = await this.course(learner, courseId);
    if (!course.published) throw unknownCourse();
    try {
      const enrollment = this.em.create(Enrollment, { learner, course });
      await this.em.flush();
      return enrollment;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw alreadyEnrolled();
      throw error;
    }
  }

  async leave(learner: User, courseId: string): Promise<void> {
    const removed = isId(courseId) ? await this.em.nativeDelete(Enrollment, { learner, course: courseId }) : 0;
    if (!removed) throw unknownEnrollment();
  }

  /** The author of each of these courses that exists (null: the platform's, or an author since erased). */
  async authorsOf(courseIds: readonly string[]): Promise<Map<string, string | null>> {
    const ids = courseIds.filter(isId);
    if (!ids.length) return new Map();
    const rows = await this.uow.query<{ id: string; created_by_id: string | null }>(
      'select id, created_by_id from courses where id = any(?::uuid[])',
      [`{${ids.join(',')}}`],
    );
    return new Map(rows.map((row) => [row.id, row.created_by_id]));
  }

  /** How many lessons each of these courses has (courses without lessons are left out). */
  async lessonCounts(courseIds: string[]): Promise<{ course_id: string; n: number }[]> {
    if (!courseIds.length) return [];
    return this.uow.query<{ course_id: string; n: number }>(
      'select course_id, count(*)::int as n from lessons where course_id = any(?::uuid[]) group by course_id',
      [`{${courseIds.join(',')}}`],
    );
  }

  /** Enrollments of each of these courses (a course without any is left out). */
  async enrollmentCounts(courseIds: string[]): Promise<Map<string, number>> {
    if (!courseIds.length) return new Map();
    const rows = await this.uow.query<{ course_id: string; n: number }>(
      'select course_id, count(*)::int as n from enrollments where course_id = any(?::uuid[]) group by course_id',
      [`{${courseIds.join(',')}}`],
    );
    return new Map(rows.map((row) => [row.course_id, row.n]));
  }

  /** Enrollments on the platform, for its figures. */
  enrollmentCount(): Promise<number> {
    return this.em.count(Enrollment, {});
  }

  /** The learners enrolled in a course, by id. */
  async learnerIdsOf(courseId: string): Promise<string[]> {
    const rows = await this.em.find(Enrollment, { course: courseId }, { fields: ['learner'] });
    return rows.map((row) => row.learner.id);
  }

  async isEnrolled(learnerId: string, courseId: string): Promise<boolean> {
    return (await this.em.count(Enrollment, { learner: learnerId, course: courseId })) > 0;
  }

  /** The learner's own enrollment, for `node(id:)`; anybody else's is not found. */
  async enrollment(learnerId: string, id: string): Promise<Enrollment> {
    const enrollment = isId(id)
      ? await this.em.findOne(Enrollment, { id, learner: learnerId }, { populate: ['course'] })
      : null;
    if (!enrollment) throw unknownEnrollment();
    return enrollment;
  }

  /** The learner's enrollments among these ids, as `enrollment` reads one. */
  enrollmentsByIds(learnerId: string, ids: string[]): Promise<Enrollment[]> {
    return this.em.find(Enrollment, { id: { $in: ids.filter(isId) }, learner: learnerId }, { populate: ['course'] });
  }

  /** The caller's enrollments among some courses, batched over the courses a page shows. */
  viewerEnrollment(learnerId: string, courseId: string): Promise<Enrollment | null> {
    return this.uow
      .loader<string, Enrollment | null>(`courses.viewerEnrollment:${learnerId}`, async (courseIds) => {
        const rows = await this.em.find(
          Enrollment,
          { learner: learnerId, course: { $in: [...courseIds] } },
          { populate: ['course'] },
        );
        return courseIds.map((id) => rows.find((row) => row.course.id === id) ?? null);
      })
      .load(courseId);
  }

  /** Each learner's enrollments, batched over the learners a query walks to. */
  enrollmentsOfLearner(learnerId: string): Promise<Enrollment[]> {
    return this.uow.children(
      'courses.enrollments',
      learnerId,
      (ids) => this.enrollmentsOf(ids),
      (e) => e.learner.id,
    );
  }

  /**
   * Each enrollment of many learners with its course's id and title, newest first, in one statement
   * and without entities: progress reads only these, and a guardian's dashboard a hundred of them
   * (the entities with their courses cost ten times the statement).
   */
  async enrolledCourses(learnerIds: string[]): Promise<EnrolledCourse[]> {
    if (!learnerIds.length) return [];
    const rows = await this.em.execute<{ learner_id: string; course_id: string; title: Localized }[]>(
      'select e.learner_id, e.course_id, c.title from enrollments as e inner join courses as c on e.course_id = c.id where e.learner_id = any(?::uuid[]) order by e.created_at desc',
      [`{${learnerIds.join(',')}}`],
    );
    return rows.map((r) => ({ learnerId: r.learner_id, course: { id: r.course_id, title: r.title } }));
  }

  /** Enrollments of many learners in one query, with their courses. */
  enrollmentsOf(learnerIds: string[]): Promise<Enrollment[]> {
    if (!learnerIds.length) return Promise.resolve([]);
    return this.em.find(
      Enrollment,
      { learner: { $in: learnerIds } },
      { populate: ['course'], orderBy: { createdAt: 'desc' } },
    );
  }
}

function assertCourse(input: NewCourse): void {
  const problems = [];
  if (!(input.minAge >= AGE.courseMin && input.minAge <= input.maxAge && input.maxAge <= AGE.courseMax)) {
    problems.push({
      field: 'minAge',
      message: `ages must satisfy ${AGE.courseMin} <= minAge <= maxAge <= ${AGE.courseMax}`,
    });
  }
  if (input.passMark !== undefined && !(input.passMark >= 0 && input.passMark <= 100))
    problems.push({ field: 'passMark', message: 'must be 0 to 100' });
  if (problems.length) throw validationFailed(problems);
  input.lessons.forEach((lesson, index) => assertQuiz(lesson.quiz, (question) => invalidAnswerIndex(index, question)));
}
