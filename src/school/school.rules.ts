import { allow, and, rule } from 'graphql-shield';
import { Role } from '../auth';
import type { Context } from '../kernel/context';
import { aboutCallerAnd, hasRole, isAuthenticated, isSelf } from '../permissions/rules';
import { SchoolRole } from './school.entity';
import { MembershipStatus } from './school.service';
import { onlySchoolStaff, onlyStaffSeeMembers, progressNotShared, unknownClass, unknownSchool } from './school.errors';

const isAdmin = hasRole(Role.admin);
const isLearner = hasRole(Role.learner);

/** The caller has one of `roles` in the school named by the `schoolId` argument (admins: every school). */
const inSchool = (name: string, roles: SchoolRole[]) =>
  and(
    isAuthenticated,
    aboutCallerAnd(
      ['schoolId'],
      rule(name, { cache: 'no_cache' })(async (_parent, args: { schoolId?: string }, ctx: Context) => {
        const school = await ctx.services.school.findSchool(String(args.schoolId ?? ''));
        if (!school) return unknownSchool();
        const role = await ctx.services.school.roleIn((await ctx.viewer())!, school.id);
        return (role !== null && roles.includes(role)) || onlySchoolStaff();
      }),
    ),
  );

/** The caller is on the staff of the school of the class named by the `classId` argument. */
export const classStaff = and(
  isAuthenticated,
  aboutCallerAnd(
    ['classId'],
    rule('classStaff', { cache: 'no_cache' })(async (_parent, args: { classId?: string }, ctx: Context) => {
      const schoolClass = await ctx.services.school.findClass(String(args.classId ?? ''));
      if (!schoolClass) return unknownClass();
      return (
        (await ctx.services.school.roleIn((await ctx.viewer())!, schoolClass.school.id)) !== null || onlySchoolStaff()
      );
    }),
  ),
);

/** A roster member's progress: only an active member's (a learner under 18 needs a guardian's progress_sharing). */
const memberSharesProgress = rule('memberSharesProgress', { cache: 'no_cache' })(
  async (member: { status: MembershipStatus }) => member.status === MembershipStatus.active || progressNotShared(),
);

const staffSchoolsOfCaller = new WeakMap<Context, Promise<Set<string>>>();

/** The schools the caller is on the staff of: read once per request, however many classes ask. */
function callerStaffSchoolIds(ctx: Context): Promise<Set<string>> {
  let ids = staffSchoolsOfCaller.get(ctx);
  if (!ids)
    staffSchoolsOfCaller.set(
      ctx,
      (ids = ctx.services.school.staffSchoolIdsOf(ctx.auth.userId!).then((list) => new Set(list))),
    );
  return ids;
}

/** A field of a class (its members): the staff of the class's school (platform admins: every school). */
const staffOfClass = and(
  isAuthenticated,
  rule('staffOfClass', { cache: 'no_cache' })(async (schoolClass: { schoolId: string }, _args, ctx: Context) => {
    if ((await ctx.viewer())!.hasRole(Role.admin)) return true;
    return (await callerStaffSchoolIds(ctx)).has(schoolClass.schoolId) || onlyStaffSeeMembers();
  }),
);

const schoolAdmin = inSchool('schoolAdmin', [SchoolRole.school_admin]);
export const schoolStaff = inSchool('schoolStaff', [SchoolRole.school_admin, SchoolRole.teacher]);

export const schoolRules = {
  Query: { schoolMe: isAuthenticated, schoolClass: classStaff, classProgress: classStaff },
  Mutation: {
    createSchool: isAdmin,
    setSchoolMember: schoolAdmin,
    createClass: schoolStaff,
    rotateJoinCode: classStaff,
    joinClass: isLearner,
    assignClassCourse: classStaff,
  },
  School: allow,
  SchoolMember: allow,
  // A class's members are its school staff's; their progress only while they share it.
  SchoolClass: { '*': allow, members: staffOfClass },
  SchoolClassConnection: allow,
  SchoolClassEdge: allow,
  ClassMemberConnection: allow,
  ClassMemberEdge: allow,
  ClassCourse: allow,
  ClassMembership: allow,
  ClassMembershipConnection: allow,
  ClassMembershipEdge: allow,
  ChildClasses: allow,
  SchoolMe: allow,
  // The roster is the school staff's (schoolClass); a member's progress only while they share it.
  RosterMember: { '*': allow, progress: memberSharesProgress },
  User: { schoolClasses: isSelf, teachingClasses: isSelf },
  ClassRoster: allow,
  ClassLearnerProgress: allow,
  ClassProgress: allow,
};
