import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { LearnerOverviewView } from '../progress';
import { type User, UserView } from '../auth';
import type { Context } from '../kernel/context';
import { PageArgs, pageOf, toConnection } from '../kernel/pagination';
import type { NodeSource } from '../kernel/node';
import { classStaff, schoolStaff } from './school.rules';
import type { ClassCourse, SchoolClass, SchoolMember } from './school.entity';
import type { ClassMemberRow, ClassMembership, RosterEntry } from './school.service';
import {
  AssignCourseInput,
  ClassCourseView,
  ClassInput,
  ClassMemberConnection,
  ClassMembershipConnection,
  ClassMembershipView,
  ClassProgress,
  ClassView,
  JoinClassInput,
  RosterMember,
  RosterView,
  SchoolInput,
  SchoolMe,
  SchoolMemberInput,
  SchoolClassConnection,
  SchoolMemberView,
  SchoolView,
} from './school.types';

@Resolver()
export class SchoolResolver {
  @Mutation(() => SchoolView, { description: 'Creates a school (admins only); audited' })
  async createSchool(
    @Arg('input', () => SchoolInput, { description: 'The school to create' }) input: SchoolInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.school.createSchool((await ctx.viewer())!, input.name, input.country);
  }

  @Mutation(() => SchoolMemberView, {
    description: "Gives a person a role in the school (the school's admins); audited",
  })
  async setSchoolMember(
    @Arg('schoolId', () => ID, { description: "The school's global id" }) schoolId: string,
    @Arg('input', () => SchoolMemberInput, { description: 'The account and its role' }) input: SchoolMemberInput,
    @Ctx() ctx: Context,
  ) {
    return memberView(await ctx.services.school.setMember((await ctx.viewer())!, schoolId, input.email, input.role));
  }

  @Mutation(() => ClassView, { description: "Creates a class with a join code (the school's admins and teachers)" })
  async createClass(
    @Arg('schoolId', () => ID, { description: "The school's global id" }) schoolId: string,
    @Arg('input', () => ClassInput, { description: 'The class to create' }) input: ClassInput,
    @Ctx() ctx: Context,
  ) {
    return classView(await ctx.services.school.createClass((await ctx.viewer())!, schoolId, input.name));
  }

  @Mutation(() => ClassView, { description: "Replaces the join code; the old one stops working (the school's staff)" })
  async rotateJoinCode(
    @Arg('classId', () => ID, { description: "The class's global id" }) classId: string,
    @Ctx() ctx: Context,
  ) {
    return classView(await ctx.services.school.rotateJoinCode((await ctx.viewer())!, classId));
  }

  @Mutation(() => ClassMembershipView, {
    description:
      'Joins a class with its code (learners); pending_consent under 18 until a guardian grants progress_sharing',
  })
  async joinClass(
    @Arg('input', () => JoinClassInput, { description: "The class's join code" }) input: JoinClassInput,
    @Ctx() ctx: Context,
  ) {
    return membershipView(await ctx.services.school.join((await ctx.viewer())!, input.code));
  }

  @Query(() => SchoolMe, { description: "The caller's schools, classes, and (guardians) their learners' classes" })
  async schoolMe(@Ctx() ctx: Context) {
    const me = await ctx.services.school.me((await ctx.viewer())!);
    return {
      schools: me.staff.map(memberView),
      classes: me.classes.map(membershipView),
      children: me.children.map((c) => ({
        learnerId: c.learner.id,
        displayName: c.learner.displayName,
        classes: c.classes.map(membershipView),
      })),
    };
  }

  @Query(() => RosterView, { description: "A class's members and courses (the school's staff)" })
  async schoolClass(
    @Arg('classId', () => ID, { description: "The class's global id" }) classId: string,
    @Ctx() ctx: Context,
  ) {
    const roster = await ctx.services.school.roster(classId);
    const c = roster.schoolClass;
    return {
      id: c.id,
      name: c.name,
      joinCode: c.joinCode,
      schoolId: c.school.id,
      schoolName: c.school.name,
      members: roster.members.map(rosterMember),
      courses: roster.courses.map(courseView),
    };
  }

  @Query(() => ClassProgress, {
    description: "Progress of the class's active members; the others listed without it (the school's staff)",
  })
  async classProgress(
    @Arg('classId', () => ID, { description: "The class's global id" }) classId: string,
    @Ctx() ctx: Context,
  ) {
    const { roster, progress } = await ctx.services.school.classProgress(classId);
    return {
      classId: roster.schoolClass.id,
      courses: roster.courses.map(courseView),
      learners: roster.members.map((m) => ({ ...rosterMember(m), courses: progress.get(m.learner.id) ?? null })),
    };
  }

  @Mutation(() => ClassCourseView, { description: "Assigns a course to the class (the school's staff)" })
  async assignClassCourse(
    @Arg('classId', () => ID, { description: "The class's global id" }) classId: string,
    @Arg('input', () => AssignCourseInput, { description: 'The course to assign' }) input: AssignCourseInput,
    @Ctx() ctx: Context,
  ) {
    return courseView(await ctx.services.school.assignCourse((await ctx.viewer())!, classId, input.courseId));
  }
}

/** The classes an account learns in and, for school staff, the classes of their schools: edges of the account (the account itself). */
@Resolver(() => UserView)
export class SchoolUserEdges {
  @FieldResolver(() => ClassMembershipConnection, {
    nullable: true,
    description:
      'The classes the account learns in, newest membership first, with their assigned courses (the account itself)',
  })
  async schoolClasses(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    const rows = (await ctx.services.school.membershipsOf(user)).map((m) => ({
      ...membershipView(m),
      id: m.member.id,
      createdAt: m.member.joinedAt,
    }));
    return toConnection(pageOf(rows, page.first, page.after));
  }

  @FieldResolver(() => SchoolClassConnection, {
    nullable: true,
    description:
      'The classes of the schools the account teaches in or administers, newest first: each reaches its members and their progress where they share it (the account itself)',
  })
  async teachingClasses(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnection(
      pageOf((await ctx.services.school.staffClassesOf(user.id)).map(classView), page.first, page.after),
    );
  }
}

/** A class's members, for its school's staff. */
@Resolver(() => ClassView)
export class SchoolClassEdges {
  @FieldResolver(() => ClassMemberConnection, {
    nullable: true,
    description:
      "The class's learners, newest member first, each with their status; their progress only while they share it (the school's staff)",
  })
  async members(@Root() schoolClass: ClassView, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnection(
      pageOf((await ctx.services.school.membersOf(schoolClass.id)).map(classMember), page.first, page.after),
    );
  }
}

/** A teacher's way to a member's progress: only while the member is active (progress_sharing granted where needed). */
@Resolver(() => RosterMember)
export class RosterMemberEdges {
  @FieldResolver(() => LearnerOverviewView, {
    nullable: true,
    description: "The member's streak and progress per course; refused while the member is pending_consent",
  })
  progress(@Root() member: RosterMember, @Ctx() ctx: Context) {
    return ctx.services.progress.overviewOf(member.learnerId);
  }
}

export const schoolNodes: NodeSource[] = [
  {
    // No root read of its own: a school is listed to its staff (schoolMe.schools), and platform admins see every one.
    type: 'School',
    table: 'schools',
    rule: schoolStaff,
    field: 'Query.schoolMe',
    args: (id) => ({ schoolId: id }),
    loadMany: (ctx, ids) => ctx.services.school.schoolsByIds(ids),
  },
  {
    type: 'SchoolClass',
    table: 'school_classes',
    rule: classStaff,
    field: 'Query.schoolClass',
    args: (id) => ({ classId: id }),
    loadMany: async (ctx, ids) => (await ctx.services.school.classesByIds(ids)).map(classView),
  },
];

function memberView(member: SchoolMember): SchoolMemberView {
  const user = member.user as User;
  return {
    schoolId: member.school.id,
    schoolName: member.school.name,
    userId: user.id,
    email: user.email,
    displayName: user.displayName,
    role: member.role,
  };
}

function classView(c: SchoolClass): ClassView {
  return { id: c.id, name: c.name, joinCode: c.joinCode, schoolId: c.school.id, createdAt: c.createdAt };
}

function courseView(row: ClassCourse): ClassCourseView {
  return { classId: row.schoolClass.id, courseId: row.course.id, title: row.course.title, assignedAt: row.assignedAt };
}

function classMember(m: ClassMemberRow) {
  return { ...rosterMember(m), id: m.id, createdAt: m.createdAt };
}

function rosterMember(m: RosterEntry) {
  return { learnerId: m.learner.id, displayName: m.learner.displayName, status: m.status, joinedAt: m.joinedAt };
}

function membershipView(m: ClassMembership): ClassMembershipView {
  const c = m.member.schoolClass;
  return {
    classId: c.id,
    className: c.name,
    schoolId: c.school.id,
    schoolName: c.school.name,
    status: m.status,
    joinedAt: m.member.joinedAt,
    courses: m.courses.map(courseView),
  };
}
