import { Node } from '../kernel/node';
import { IsIn, IsISO31661Alpha2, Length, Matches, MaxLength } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { IsEmail } from 'class-validator';
import { LocalizedTextView } from '../courses';
import { Connection } from '../kernel/pagination';
import { CourseProgressView } from '../progress';
import { SchoolRole } from './school.entity';
import { MembershipStatus } from './school.service';

registerEnumType(SchoolRole, {
  name: 'SchoolRole',
  description: 'What a member does in a school',
  valuesConfig: { school_admin: { description: 'Runs the school: its staff and classes' }, teacher: { description: 'Teaches classes and follows their learners' } },
});
registerEnumType(MembershipStatus, {
  name: 'ClassMembershipStatus',
  description: "Where a learner's place in a class stands",
  valuesConfig: {
    active: { description: 'In the class; the teacher sees their progress' },
    pending_consent: { description: 'A learner under 18 whose guardian has not granted progress sharing: in the class, progress hidden' },
  },
});

@InputType({ description: 'A school to create' })
export class SchoolInput {
  @Field(() => String)
  @Length(1, 200)
  name!: string;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2' })
  @IsISO31661Alpha2()
  country!: string;
}

@InputType({ description: 'An account to add to a school staff' })
export class SchoolMemberInput {
  @Field(() => String)
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @Field(() => SchoolRole)
  @IsIn(Object.values(SchoolRole))
  role!: SchoolRole;
}

@InputType({ description: 'A class to create in a school' })
export class ClassInput {
  @Field(() => String)
  @Length(1, 200)
  name!: string;
}

@InputType({ description: "A class's join code" })
export class JoinClassInput {
  @Field(() => String, { description: "The class's 8-character join code" })
  @Matches(/^\s*[A-Za-z0-9]{8}\s*$/, { message: 'must be 8 letters or digits' })
  code!: string;
}

@InputType({ description: 'A course a teacher assigns to a class' })
export class AssignCourseInput {
  @Field(() => ID)
  courseId!: string;
}

@ObjectType('School', { description: 'A school', implements: Node })
export class SchoolView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  country!: string;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@ObjectType('SchoolMember', { description: 'A member of a school staff' })
export class SchoolMemberView {
  @Field(() => ID)
  schoolId!: string;

  @Field(() => String)
  schoolName!: string;

  @Field(() => ID)
  userId!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String)
  displayName!: string;

  @Field(() => SchoolRole)
  role!: SchoolRole;
}

@ObjectType('SchoolClass', { description: 'A class of a school', implements: Node })
export class ClassView implements Node {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'For learners to join; rotatable' })
  joinCode!: string;

  @Field(() => ID)
  schoolId!: string;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;
}

@ObjectType('ClassCourse', { description: 'A course assigned to a class' })
export class ClassCourseView {
  @Field(() => ID)
  classId!: string;

  @Field(() => ID)
  courseId!: string;

  @Field(() => LocalizedTextView)
  title!: LocalizedTextView;

  @Field(() => GraphQLISODateTime)
  assignedAt!: Date;
}

@ObjectType('ClassMembership', { description: "A learner's place in a class" })
export class ClassMembershipView {
  @Field(() => ID)
  classId!: string;

  @Field(() => String)
  className!: string;

  @Field(() => ID)
  schoolId!: string;

  @Field(() => String)
  schoolName!: string;

  @Field(() => MembershipStatus)
  status!: MembershipStatus;

  @Field(() => GraphQLISODateTime)
  joinedAt!: Date;

  @Field(() => [ClassCourseView])
  courses!: ClassCourseView[];
}

@ObjectType({ description: "A guardian's child and the classes they are in" })
export class ChildClasses {
  @Field(() => ID)
  learnerId!: string;

  @Field(() => String)
  displayName!: string;

  @Field(() => [ClassMembershipView])
  classes!: ClassMembershipView[];
}

@ObjectType({ description: "The caller's schools, classes and children's classes" })
export class SchoolMe {
  @Field(() => [SchoolMemberView], { description: 'Schools the caller works in' })
  schools!: SchoolMemberView[];

  @Field(() => [ClassMembershipView], { description: 'Classes the caller learns in' })
  classes!: ClassMembershipView[];

  @Field(() => [ChildClasses], { description: "A guardian's learners' classes" })
  children!: ChildClasses[];
}

@ObjectType({ description: 'A learner of a class roster' })
export class RosterMember {
  @Field(() => ID)
  learnerId!: string;

  @Field(() => String)
  displayName!: string;

  @Field(() => MembershipStatus)
  status!: MembershipStatus;

  @Field(() => GraphQLISODateTime)
  joinedAt!: Date;
}

@ObjectType('ClassRoster', { description: "A class's learners, as its teacher sees them" })
export class RosterView {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  joinCode!: string;

  @Field(() => ID)
  schoolId!: string;

  @Field(() => String)
  schoolName!: string;

  @Field(() => [RosterMember])
  members!: RosterMember[];

  @Field(() => [ClassCourseView])
  courses!: ClassCourseView[];
}

@ObjectType({ description: "A learner of a class and their progress in the class's courses" })
export class ClassLearnerProgress {
  @Field(() => ID)
  learnerId!: string;

  @Field(() => String)
  displayName!: string;

  @Field(() => MembershipStatus)
  status!: MembershipStatus;

  @Field(() => [CourseProgressView], { nullable: true, description: 'Null while the member is pending_consent' })
  courses!: CourseProgressView[] | null;
}

@ObjectType({ description: "The progress of a class's learners in its courses" })
export class ClassProgress {
  @Field(() => ID)
  classId!: string;

  @Field(() => [ClassCourseView])
  courses!: ClassCourseView[];

  @Field(() => [ClassLearnerProgress])
  learners!: ClassLearnerProgress[];
}

/** A teacher's or school admin's classes, newest first. */
export const SchoolClassConnection = Connection(ClassView, 'SchoolClass');

/** A class's members, newest member first. */
export const ClassMemberConnection = Connection(RosterMember, 'ClassMember');

/** The classes a learner learns in, newest membership first. */
export const ClassMembershipConnection = Connection(ClassMembershipView, 'ClassMembership');
