import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../kernel/context';
import { toConnection } from '../kernel/pagination';
import { selectsField } from '../kernel/selection';
import type { Course, Enrollment, Lesson } from './course.entity';
import {
  CatalogArgs,
  CourseChangeInput,
  CourseConnection,
  CourseInput,
  CourseView,
  EnrollmentView,
  LessonInput,
  LessonView,
  lessonOf,
  presentLessonBody,
} from './courses.types';

/** An enrollment as the graph shows it (its learner kept for the fields below it). */
export function presentEnrollment(e: Enrollment): EnrollmentView {
  return { id: e.id, learnerId: e.learner.id, course: e.course, enrolledAt: e.createdAt, createdAt: e.createdAt };
}

/** What a learner sees of a lesson: the quiz without its answers. */
export function presentLesson(lesson: Lesson): LessonView {
  const quiz = lesson.quiz?.questions.map((q) => ({ prompt: q.prompt, options: q.options })) ?? null;
  return { ...presentLessonBody(lesson), quiz };
}

/** A course as a list hands it to its fields: with `paid` when the list read it for all its courses. */
type Priced = Pick<Course, 'id'> & { paid?: boolean };

@Resolver(() => CourseView)
export class CoursesResolver {
  @Query(() => CourseConnection, { description: "Published courses, by default those fitting a learner's age" })
  async courses(@Args(() => CatalogArgs) args: CatalogArgs, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    const filter = { level: args.level, age: args.age, language: args.language, text: args.q };
    const page = await ctx.services.courses.catalog(await ctx.viewer(), filter, args.first, args.after);
    // The page's `paid` read with it: asked course by course, each made a chain of promises, a
    // third of a catalog page's CPU time, for the same one statement.
    if (selectsField(info, 'paid')) {
      const paid = await ctx.services.entitlements.paidCourses(page.nodes.map((course) => course.id));
      for (const course of page.nodes as Priced[]) course.paid = paid.has(course.id);
    }
    return toConnection(page);
  }

  @Query(() => CourseView, { description: 'One course by its id' })
  async course(@Arg('id', () => ID, { description: 'The course to show' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.courses.course(await ctx.viewer(), id);
  }

  @Query(() => [EnrollmentView], { description: "The caller's courses" })
  async myCourses(@Ctx() ctx: Context): Promise<EnrollmentView[]> {
    const enrollments = await ctx.services.courses.enrollmentsOf([ctx.auth.userId!]);
    return enrollments.map(presentEnrollment);
  }

  @FieldResolver(() => Boolean, {
    description: 'Sold by a published product: it opens (enrollment, lessons, progress) only with an entitlement',
  })
  paid(@Root() course: Priced, @Ctx() ctx: Context): boolean | Promise<boolean> {
    return course.paid ?? ctx.services.entitlements.isPaidCourse(course.id);
  }

  // Nullable because its rule refuses a paid course's lessons: the refusal nulls this field, not the course and the list it is in.
  @FieldResolver(() => [LessonView], {
    nullable: true,
    complexity: 30,
    description: "In order; priced as 30 lessons in the query cost (a paid course's once bought)",
  })
  async lessons(@Root() course: Course, @Ctx() ctx: Context): Promise<LessonView[]> {
    return (await ctx.services.courses.lessons(course.id)).map(presentLesson);
  }

  @Mutation(() => EnrollmentView, { description: 'Enrolls the caller, a learner, in a published course' })
  async enroll(
    @Arg('courseId', () => ID, { description: 'The published course to enroll in' }) courseId: string,
    @Ctx() ctx: Context,
  ): Promise<EnrollmentView> {
    const enrollment = await ctx.services.courses.enroll((await ctx.viewer())!, courseId);
    return presentEnrollment(enrollment);
  }

  @Mutation(() => Boolean, { description: "Ends the caller's enrollment in a course; true when done" })
  async leaveCourse(
    @Arg('courseId', () => ID, { description: 'The course to leave' }) courseId: string,
    @Ctx() ctx: Context,
  ) {
    await ctx.services.courses.leave((await ctx.viewer())!, courseId);
    return true;
  }

  @Mutation(() => CourseView, { description: 'Content admins: a new course with its lessons, unpublished' })
  async createCourse(
    @Arg('input', () => CourseInput, { description: 'The course and its lessons' }) input: CourseInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.courses.createCourse({ ...input, lessons: input.lessons.map(lessonOf) }, ctx.auth.userId!);
  }

  @Mutation(() => CourseView, {
    description: 'Content admins: changes the title, description, level, ages or pass mark of a course',
  })
  async updateCourse(
    @Arg('id', () => ID, { description: 'The course to change' }) id: string,
    @Arg('input', () => CourseChangeInput, { description: 'The values to change; omitted ones are kept' })
    input: CourseChangeInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.courses.updateCourse((await ctx.viewer())!, id, input);
  }

  @Mutation(() => CourseView, { description: 'Content admins: makes a course visible and open to enrollment' })
  async publishCourse(@Arg('id', () => ID, { description: 'The course to publish' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.courses.setPublished((await ctx.viewer())!, id, true);
  }

  @Mutation(() => CourseView, { description: 'Content admins: hides a course from the catalog and new enrollments' })
  async unpublishCourse(
    @Arg('id', () => ID, { description: 'The course to unpublish' }) id: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.courses.setPublished((await ctx.viewer())!, id, false);
  }

  @Mutation(() => LessonView, { description: 'Content admins: a lesson (and its quiz) at the end of a course' })
  async addLesson(
    @Arg('courseId', () => ID, { description: 'The course to add the lesson to' }) courseId: string,
    @Arg('input', () => LessonInput, { description: 'The lesson and its quiz' }) input: LessonInput,
    @Ctx() ctx: Context,
  ) {
    return presentLesson(await ctx.services.courses.addLesson((await ctx.viewer())!, courseId, lessonOf(input)));
  }

  @Mutation(() => LessonView, { description: "Content admins: replaces a lesson's texts and quiz" })
  async updateLesson(
    @Arg('courseId', () => ID, { description: 'The course of the lesson' }) courseId: string,
    @Arg('lessonId', () => ID, { description: 'The lesson to replace' }) lessonId: string,
    @Arg('input', () => LessonInput, { description: 'The new texts and quiz of the lesson' }) input: LessonInput,
    @Ctx() ctx: Context,
  ) {
    return presentLesson(
      await ctx.services.courses.updateLesson((await ctx.viewer())!, courseId, lessonId, lessonOf(input)),
    );
  }
}
