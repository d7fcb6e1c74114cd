import { randomInt } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditService } from '../audit';
import { ADULT_AGE, ageOn } from '../auth';
import type { AuthService, HomeRegionService } from '../auth';
import { Role, type User } from '../auth';
import { type ConsentService, ConsentType } from '../consent';
import type { Course } from '../courses';
import type { CoursesService } from '../courses';
import type { GuardianService } from '../guardian';
import { isId } from '../kernel/ids';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { CourseProgress, ProgressService } from '../progress';
import { ClassCourse, ClassMember, School, SchoolClass, SchoolMember, SchoolRole } from './school.entity';
import { codeOfAnotherRegion, hereThenElsewhere, regionOfRow } from './school-region';
import {
  alreadyInClass,
  courseAlreadyAssigned,
  schoolRegionMismatch,
  unknownClass,
  unknownClassCode,
  unknownSchool,
  unknownUser,
} from './school.errors';

export enum MembershipStatus {
  active = 'active',
  /** A learner under 18 whose guardian has not granted progress_sharing (or revoked it). */
  pending_consent = 'pending_consent',
}

/** No 0/O, 1/I/L: codes are read aloud and copied from a board. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const JOIN_CODE_LENGTH = 8;

export function newJoinCode(): string {
  return Array.from({ length: JOIN_CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

export interface RosterEntry {
  learner: User;
  status: MembershipStatus;
  joinedAt: Date;
}

export interface Roster {
  schoolClass: SchoolClass;
  members: RosterEntry[];
  courses: ClassCourse[];
}

export interface ClassMembership {
  member: ClassMember;
  status: MembershipStatus;
  courses: ClassCourse[];
}

/** A member of a class as an edge of the class: the row's id and join time are its cursor. */
export interface ClassMemberRow extends RosterEntry {
  id: string;
  classId: string;
  createdAt: Date;
}

export class SchoolService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly auth: AuthService,
    private readonly courses: CoursesService,
    private readonly progress: ProgressService,
    private readonly guardians: GuardianService,
    private readonly audit: AuditService,
    private readonly consent: ConsentService,
    private readonly homeRegion: HomeRegionService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /** Batched with the other schools asked for in the same tick (the rules of `nodes(ids:)` ask for one per id). */
  findSchool(id: string): Promise<School | null> {
    return this.uow.byId('school.findSchool', id, (ids) => this.schoolsByIds(ids));
  }

  /** Batched like `findSchool`. */
  findClass(id: string): Promise<SchoolClass | null> {
    return this.uow.byId('school.findClass', id, (ids) => this.classesByIds(ids));
  }

  /**
   * The schools among these ids (the graph's `nodes`, each already let through by the rule of its
   * staff), from any region: platform admins name schools of every country.
   */
  schoolsByIds(ids: string[]): Promise<School[]> {
    return hereThenElsewhere(this.uow, ids.filter(isId), (em, wanted) => em.find(School, { id: { $in: wanted } }));
  }

  /** The classes among these ids, with their schools (the graph's `nodes`, each already let through by the rule of `schoolClass`), from any region. */
  classesByIds(ids: string[]): Promise<SchoolClass[]> {
    return hereThenElsewhere(this.uow, ids.filter(isId), (em, wanted) =>
      em.find(SchoolClass, { id: { $in: wanted } }, { populate: ['school'] }),
    );
  }

  /** This area's service in a unit of work of the region whose database keeps the row: this one when it is here. */
  private at(row: School | SchoolClass): SchoolService {
    return this.in(regionOfRow(this.uow.deps, row));
  }

  private in(region: string): SchoolService {
    return region === this.uow.deps.region ? this : this.uow.deps.inRegion(region).unit().services.school;
  }

  /** The viewer's role in a school, or null; platform admins act as school admins everywhere. */
  async roleIn(viewer: User, schoolId: string): Promise<SchoolRole | null> {
    if (viewer.hasRole(Role.admin)) return SchoolRole.school_admin;
    // Batched with the viewer's other schools asked for in the same tick.
    const member = await this.uow
      .loader<string, SchoolMember | null>(`school.roleIn:${viewer.id}`, async (schoolIds) => {
        const rows = await this.em.find(SchoolMember, { school: { $in: [...schoolIds] }, user: viewer.id });
        return schoolIds.map((key) => rows.find((row) => row.school.id === key) ?? null);
      })
      .load(schoolId);
    return member?.role ?? null;
  }

  /** Made in its country's region's database, whatever the admin's own region. */
  async createSchool(actor: User, name: string, country: string): Promise<School> {
    const home = this.in(this.uow.deps.homeRegionOf(country.toUpperCase()));
    if (home !== this) return home.createSchool(actor, name, country);
    return this.uow.transaction(async (em) => {
      const school = em.create(School, {
        name: name.trim(),
        country: country.toUpperCase(),
        createdBy: actor.id,
      });
      await em.flush();
      await this.audit.record({
        actor,
        action: 'school.created',
        target: { type: 'school', id: school.id },
        data: { name: school.name, country: school.country },
      });
      return school;
    });
  }

  /** Gives a person a role in a school (replacing their former one there); audited. */
  async setMember(actor: User, schoolId: string, email: string, role: SchoolRole): Promise<SchoolMember> {
    const school = await this.findSchool(schoolId);
    if (!school) throw unknownSchool();
    const home = this.at(school);
    if (home !== this) return home.setMember(actor, schoolId, email, role);
    const user = await this.memberToBe(school, email);
    return this.uow.transaction(async (em) => {
      let member = await em.findOne(SchoolMember, { school, user }, { populate: ['user'] });
      if (member) member.role = role;
      else member = em.create(SchoolMember, { school, user, role });
      await em.flush();
      await this.audit.record({
        actor,
        action: 'school.member_set',
        target: { type: 'school', id: school.id },
        data: { userId: user.id, role },
      });
      return member;
    });
  }

  /** The account of this address, which must be of the school's region: an account of another is refused, an unknown one is not found. */
  private async memberToBe(school: School, email: string): Promise<User> {
    const user = await this.auth.findUserByEmail(email);
    if (user) {
      this.assertSameRegion(school, user);
      return user;
    }
    const region = await this.homeRegion.regionOfAddress(email);
    if (region !== this.uow.deps.region && (await this.in(region).auth.findUserByEmail(email)))
      throw schoolRegionMismatch();
    throw unknownUser();
  }

  /** A school is in its country's region, and so are its members. */
  private assertSameRegion(school: School, account: User): void {
    if (this.uow.deps.homeRegionOf(school.country) !== account.region) throw schoolRegionMismatch();
  }

  async createClass(actor: User, schoolId: string, name: string): Promise<SchoolClass> {
    const school = await this.findSchool(schoolId);
    if (!school) throw unknownSchool();
    const home = this.at(school);
    if (home !== this) return home.createClass(actor, schoolId, name);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.uow.transaction(async (em) => {
          const schoolClass = em.create(SchoolClass, {
            school,
            name: name.trim(),
            joinCode: newJoinCode(),
            createdBy: actor.id,
          });
          await em.flush();
          return schoolClass;
        });
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException) || attempt >= 5) throw error;
        this.em.clear();
      }
    }
  }

  /** A new join code; the old one stops working at once. */
  async rotateJoinCode(actor: User, classId: string): Promise<SchoolClass> {
    const schoolClass = await this.findClass(classId);
    if (!schoolClass) throw unknownClass();
    const home = this.at(schoolClass);
    if (home !== this) return home.rotateJoinCode(actor, classId);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.uow.transaction(async (em) => {
          const row = await em.findOneOrFail(SchoolClass, { id: classId }, { populate: ['school'] });
          row.joinCode = newJoinCode();
          row.codeRotatedAt = new Date();
          await em.flush();
          await this.audit.record({ actor, action: 'school.join_code_rotated', target: { type: 'class', id: row.id } });
          return row;
        });
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException) || attempt >= 5) throw error;
        this.em.clear();
      }
    }
  }

  /** A learner joins with the class's current code: a class of their own region's schools. */
  async join(learner: User, code: string): Promise<ClassMembership> {
    const joinCode = code.trim().toUpperCase();
    const schoolClass = await this.em.findOne(SchoolClass, { joinCode }, { populate: ['school'] });
    if (!schoolClass) {
      if (await codeOfAnotherRegion(this.uow.deps, joinCode)) throw schoolRegionMismatch();
      throw unknownClassCode();
    }
    this.assertSameRegion(schoolClass.school, learner);
    let member: ClassMember;
    try {
      member = await this.uow.transaction(async (em) => {
        const row = em.create(ClassMember, { schoolClass, learner: learner.id });
        await em.flush();
        return row;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw alreadyInClass();
      throw error;
    }
    const [statuses, courses] = await Promise.all([this.statusesOf([learner]), this.coursesOf([schoolClass.id])]);
    return { member, status: statuses.get(learner.id)!, courses: courses.get(schoolClass.id) ?? [] };
  }

  /**
   * Which learners' progress may show, in one statement whatever their number: adults always;
   * under 18 only while a guardian's progress_sharing consent stands (read when asked, so a
   * revocation hides it at once).
   */
  async statusesOf(learners: User[]): Promise<Map<string, MembershipStatus>> {
    const minors = learners.filter((l) => !l.birthDate || ageOn(l.birthDate) < ADULT_AGE).map((l) => l.id);
    const consented = await this.consent.guardianGrantedAmong(minors, ConsentType.progress_sharing);
    return new Map(
      learners.map((l) => [
        l.id,
        !minors.includes(l.id) || consented.has(l.id) ? MembershipStatus.active : MembershipStatus.pending_consent,
      ]),
    );
  }

  private async coursesOf(classIds: string[]): Promise<Map<string, ClassCourse[]>> {
    if (!classIds.length) return new Map();
    const rows = await this.em.find(
      ClassCourse,
      { schoolClass: { $in: classIds } },
      { populate: ['course'], orderBy: { assignedAt: 'asc', id: 'asc' } },
    );
    const byClass = new Map<string, ClassCourse[]>();
    for (const row of rows) byClass.set(row.schoolClass.id, [...(byClass.get(row.schoolClass.id) ?? []), row]);
    return byClass;
  }

  async roster(classId: string): Promise<Roster> {
    const schoolClass = await this.findClass(classId);
    if (!schoolClass) throw unknownClass();
    const home = this.at(schoolClass);
    if (home !== this) return home.roster(classId);
    const [members, courses] = await Promise.all([
      this.em.find(ClassMember, { schoolClass }, { populate: ['learner'], orderBy: { joinedAt: 'asc', id: 'asc' } }),
      this.coursesOf([schoolClass.id]),
    ]);
    const statuses = await this.statusesOf(members.map((m) => m.learner));
    return {
      schoolClass,
      members: members.map((m) => ({ learner: m.learner, status: statuses.get(m.learner.id)!, joinedAt: m.joinedAt })),
      courses: courses.get(schoolClass.id) ?? [],
    };
  }

  /**
   * Each member with their progress in the class's courses (all their courses while none is
   * assigned); members whose progress may not show are listed without it. A fixed number of
   * statements for any class size.
   */
  async classProgress(classId: string): Promise<{ roster: Roster; progress: Map<string, CourseProgress[]> }> {
    const schoolClass = await this.findClass(classId);
    if (!schoolClass) throw unknownClass();
    const home = this.at(schoolClass);
    if (home !== this) return home.classProgress(classId);
    const roster = await this.roster(classId);
    const active = roster.members.filter((m) => m.status === MembershipStatus.active).map((m) => m.learner.id);
    const overviews = await this.progress.overviews(active);
    const assigned = new Set(roster.courses.map((c) => c.course.id));
    const progress = new Map(
      overviews.map((o) => [
        o.learnerId,
        assigned.size ? o.courses.filter((c) => assigned.has(c.courseId)) : o.courses,
      ]),
    );
    return { roster, progress };
  }

  async assignCourse(actor: User, classId: string, courseId: string): Promise<ClassCourse> {
    const schoolClass = await this.findClass(classId);
    if (!schoolClass) throw unknownClass();
    const home = this.at(schoolClass);
    if (home !== this) return home.assignCourse(actor, classId, courseId);
    const course: Course = await this.courses.course(actor, courseId);
    try {
      return await this.uow.transaction(async (em) => {
        const row = em.create(ClassCourse, { schoolClass, course, assignedBy: actor.id });
        await em.flush();
        return row;
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw courseAlreadyAssigned();
      throw error;
    }
  }

  /** The schools an account is on the staff of (teacher or school admin), read once per call. */
  async staffSchoolIdsOf(userId: string): Promise<string[]> {
    return (await this.em.find(SchoolMember, { user: userId })).map((m) => m.school.id);
  }

  /**
   * The classes of the schools an account is on the staff of, as an edge of the account: the
   * accounts a request walks to are read together (two statements for any number of them).
   */
  async staffClassesOf(userId: string): Promise<SchoolClass[]> {
    const rows = await this.uow.children(
      'school.staffClasses',
      userId,
      async (userIds) => {
        const staff = await this.em.find(SchoolMember, { user: { $in: userIds } });
        const schoolIds = [...new Set(staff.map((m) => m.school.id))];
        const classes = schoolIds.length
          ? await this.em.find(SchoolClass, { school: { $in: schoolIds } }, { populate: ['school'] })
          : [];
        return staff.flatMap((m) =>
          classes.filter((c) => c.school.id === m.school.id).map((schoolClass) => ({ userId: m.user.id, schoolClass })),
        );
      },
      (row) => row.userId,
    );
    return rows.map((row) => row.schoolClass);
  }

  /**
   * A class's members with whether their progress may show, as an edge of the class: every class a
   * request walks to is read in the same two statements (members, then the consents of the minors).
   */
  membersOf(classId: string): Promise<ClassMemberRow[]> {
    return this.uow.children(
      'school.members',
      classId,
      async (classIds) => {
        const members = await this.em.find(ClassMember, { schoolClass: { $in: classIds } }, { populate: ['learner'] });
        const learners = [...new Map(members.map((m) => [m.learner.id, m.learner])).values()];
        const statuses = await this.statusesOf(learners);
        return members.map((m) => ({
          id: m.id,
          classId: m.schoolClass.id,
          createdAt: m.joinedAt,
          learner: m.learner,
          status: statuses.get(m.learner.id)!,
          joinedAt: m.joinedAt,
        }));
      },
      (row) => row.classId,
    );
  }

  /** The classes a learner learns in, each with its status and assigned courses. */
  async membershipsOf(learner: User): Promise<ClassMembership[]> {
    const members = await this.em.find(
      ClassMember,
      { learner: learner.id },
      { populate: ['schoolClass', 'schoolClass.school'] },
    );
    const statuses = await this.statusesOf([learner]);
    const courses = await this.coursesOf([...new Set(members.map((m) => m.schoolClass.id))]);
    return members.map((member) => ({
      member,
      status: statuses.get(learner.id)!,
      courses: courses.get(member.schoolClass.id) ?? [],
    }));
  }

  /** The caller's schools (staff), classes (learners) and their learners' classes (guardians). */
  async me(viewer: User): Promise<{
    staff: SchoolMember[];
    classes: ClassMembership[];
    children: { learner: User; classes: ClassMembership[] }[];
  }> {
    const children = viewer.hasRole(Role.guardian) ? await this.guardians.activeLearnersOf(viewer.id) : [];
    const learners = [viewer, ...children];
    const [staff, members] = await Promise.all([
      this.em.find(SchoolMember, { user: viewer.id }, { populate: ['school', 'user'], orderBy: { createdAt: 'asc' } }),
      this.em.find(
        ClassMember,
        { learner: { $in: learners.map((l) => l.id) } },
        { populate: ['schoolClass', 'schoolClass.school', 'learner'], orderBy: { joinedAt: 'asc' } },
      ),
    ]);
    const [statuses, courses] = await Promise.all([
      this.statusesOf(learners),
      this.coursesOf([...new Set(members.map((m) => m.schoolClass.id))]),
    ]);
    const membershipsOf = (learnerId: string) =>
      members
        .filter((m) => m.learner.id === learnerId)
        .map((member) => ({
          member,
          status: statuses.get(learnerId)!,
          courses: courses.get(member.schoolClass.id) ?? [],
        }));
    return {
      staff,
      classes: membershipsOf(viewer.id),
      children: children.map((learner) => ({ learner, classes: membershipsOf(learner.id) })),
    };
  }
}
