import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { presentCertificate } from '../certificates';
import { CertificateView } from '../certificates';
import { EnrollmentView, presentEnrollment } from '../courses';
import type { Context } from '../kernel/context';
import {
  CompleteLessonInput,
  CourseProgressView,
  DashboardLearner,
  LearnerOverviewView,
  QuizAnswersInput,
  QuizResult,
} from './progress.types';

const me = (ctx: Context) => ctx.auth.userId!;

@Resolver()
export class ProgressResolver {
  @Mutation(() => CourseProgressView, {
    description: 'Harmless twice; the course must be one the caller is enrolled in',
  })
  async completeLesson(
    @Arg('lessonId', () => ID, { description: "The lesson's id" }) lessonId: string,
    @Arg('input', () => CompleteLessonInput, {
      nullable: true,
      description: 'The time spent on the lesson; may be left out',
    })
    input: CompleteLessonInput | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.progress.completeLesson((await ctx.viewer())!, lessonId, input?.timeSpentSeconds ?? 0);
  }

  @Mutation(() => QuizResult, { description: 'Checked on the server; every attempt is kept' })
  async submitQuiz(
    @Arg('lessonId', () => ID, { description: 'The id of the lesson whose quiz is taken' }) lessonId: string,
    @Arg('input', () => QuizAnswersInput, { description: "The caller's answers" }) input: QuizAnswersInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.progress.submitQuiz((await ctx.viewer())!, lessonId, input.answers);
  }

  @Query(() => CourseProgressView, { description: "The caller's progress in a course they are enrolled in" })
  courseProgress(
    @Arg('courseId', () => ID, { description: 'The id of a course the caller is enrolled in' }) courseId: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.progress.courseProgress(me(ctx), courseId);
  }

  @Query(() => LearnerOverviewView, { description: "The caller's streak, time and courses" })
  myProgress(@Ctx() ctx: Context) {
    return ctx.services.progress.overview(me(ctx));
  }

  @Query(() => LearnerOverviewView, { description: "A linked learner's progress (their active guardian)" })
  learnerProgress(
    @Arg('learnerId', () => ID, { description: 'The id of a learner linked to the caller' }) learnerId: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.progress.overview(learnerId);
  }

  @Query(() => [EnrollmentView], { description: "A linked learner's courses (their active guardian)" })
  async learnerCourses(
    @Arg('learnerId', () => ID, { description: 'The id of a learner linked to the caller' }) learnerId: string,
    @Ctx() ctx: Context,
  ): Promise<EnrollmentView[]> {
    return (await ctx.services.courses.enrollmentsOf([learnerId])).map(presentEnrollment);
  }

  @Query(() => [CertificateView], { description: "A linked learner's certificates (their active guardian)" })
  async learnerCertificates(
    @Arg('learnerId', () => ID, { description: 'The id of a learner linked to the caller' }) learnerId: string,
    @Ctx() ctx: Context,
  ) {
    return (await ctx.services.certificates.listOf([learnerId])).map(presentCertificate);
  }

  @Query(() => [DashboardLearner], {
    description: "Every linked learner's progress and certificates, in a fixed number of queries",
  })
  async guardianDashboard(@Ctx() ctx: Context): Promise<DashboardLearner[]> {
    const learners = await ctx.services.guardian.activeLearnersOf(me(ctx));
    const ids = learners.map((l) => l.id);
    const [overviews, certificates] = await Promise.all([
      ctx.services.progress.overviews(ids),
      ctx.services.certificates.summariesOf(ids),
    ]);
    return learners.map((learner, i) => ({
      learner,
      progress: overviews[i],
      certificates: certificates.filter((c) => c.learnerId === learner.id).map(({ learnerId: _, ...view }) => view),
    }));
  }
}
