import { Node } from '../kernel/node';
import { IsIn, IsISO31661Alpha2, Length, Matches, MaxLength } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { IsEmail } from 'class-validator';
import { Connection } from '../kernel/pagination';
import { CourseProgressView } from '../progress';
import { SchoolRole } from './school.entity';
import { MembershipStatus } from './school.service';
import { LocalizedTextView } from '../kernel/localized';

registerEnumType(SchoolRole, {
  name: 'SchoolRole',
  description: 'What a member does in a school',
  valuesConfig: {
    school_admin: { description: 'Runs the school: its staff and classes' },
    teacher: { description: 'Teaches classes and follows their learners' },
  },
});
registerEnumType(MembershipStatus, {
  name: 'ClassMembershipStatus',
  description: "Where a learner's place in a class stands",
  valuesConfig: {
    active: { description: 'In the class; the teacher sees their progress' },
    pending_consent: {
      description: 'A learner under 18 whose guardian has not granted progress sharing: in the class, progress hidden',
    },
  },
});

@InputType({ description: 'A school to create' })
export class SchoolInput {
  @Field(() => String, { description: "The school's name, 1 to 200 characters" })
  @Length(1, 200)
  name!: string;

  @Field(() => String, { description: 'ISO 3166-1 alpha-2' })
  @IsISO31661Alpha2()
  country!: string;
}

@InputType({ description: 'An account to add to a school staff' })
export class SchoolMemberInput {
  @Field(() => String, { description: 'The e-mail address of an existing account' })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @Field(() => SchoolRole, { description: 'What the person does in the school' })
  @IsIn(Object.values(SchoolRole))
  role!: SchoolRole;
}

@InputType({ description: 'A class to create in a school' })
export class ClassInput {
  @Field(() => String, { description: "The class's name, 1 to 200 characters" })
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
  @Field(() => ID, { description: 'The id of a course the caller can see' })
  courseId!: string;
}

@ObjectType('School', { description: 'A school', implements: Node })
export class SchoolView implements Node {
  @Field(() => ID, { description: "The school's global id" })
  id!: string;

  @Field(() => String, { description: "The school's name" })
  name!: string;

  @Field(() => String, { description: "The school's country (ISO 3166-1 alpha-2)" })
  country!: string;

  @Field(() => GraphQLISODateTime, { description: 'When the school was created' })
  createdAt!: Date;
}

@ObjectType('SchoolMember', { description: 'A member of a school staff' })
export class SchoolMemberView {
  @Field(() => ID, { description: "The school's id" })
  schoolId!: string;

  @Field(() => String, { description: "The school's name" })
  schoolName!: string;

  @Field(() => ID, { description: "The member's account id" })
  userId!: string;

  @Field(() => String, { description: "The member's e-mail address" })
  email!: string;

  @Field(() => String, { description: "The name the member's account shows" })
  displayName!: string;

  @Field(() => SchoolRole, { description: 'What the member does in the school' })
  role!: SchoolRole;
}

@ObjectType('SchoolClass', { description: 'A class of a school', implements: Node })
export class ClassView implements Node {
  @Field(() => ID, { description: "The class's global id" })
  id!: string;

  @Field(() => String, { description: "The class's name" })
  name!: string;

  @Field(() => String, { description: 'For learners to join; rotatable' })
  joinCode!: string;

  @Field(() => ID, { description: 'The id of the school the class belongs to' })
  schoolId!: string;

  @Field(() => GraphQLISODateTime, { description: 'When the class was created' })
  createdAt!: Date;
}

@ObjectType('ClassCourse', { description: 'A course assigned to a class' })
export class ClassCourseView {
  @Field(() => ID, { description: "The class's id" })
  classId!: string;

  @Field(() => ID, { description: "The course's id" })
  courseId!: string;

  @Field(() => LocalizedTextView, { description: "The course's title in each locale" })
  title!: LocalizedTextView;

  @Field(() => GraphQLISODateTime, { description: 'When the course was assigned to the class' })
  assignedAt!: Date;
}

@ObjectType('ClassMembership', { description: "A learner's place in a class" })
export class ClassMembershipView {
  @Field(() => ID, { description: "The class's id" })
  classId!: string;

  @Field(() => String, { description: "The class's name" })
  className!: string;

  @Field(() => ID, { description: 'The id of the school the class belongs to' })
  schoolId!: string;

  @Field(() => String, { description: "The school's name" })
  schoolName!: string;

  @Field(() => MembershipStatus, { description: "Whether the teacher sees the learner's progress yet" })
  status!: MembershipStatus;

  @Field(() => GraphQLISODateTime, { description: 'When the learner joined the class' })
  joinedAt!: Date;

  @Field(() => [ClassCourseView], { description: 'The courses assigned to the class' })
  courses!: ClassCourseView[];
}

@ObjectType({ description: "A guardian's child and the classes they are in" })
export class ChildClasses {
  @Field(() => ID, { description: "The child's id" })
  learnerId!: string;

  @Field(() => String, { description: "The name the child's account shows" })
  displayName!: string;

  @Field(() => [ClassMembershipView], { description: 'The classes the child is in' })
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
  @Field(() => ID, { description: "The learner's id" })
  learnerId!: string;

  @Field(() => String, { description: "The name the learner's account shows" })
  displayName!: string;

  @Field(() => MembershipStatus, { description: "Whether the teacher sees the learner's progress" })
  status!: MembershipStatus;

  @Field(() => GraphQLISODateTime, { description: 'When the learner joined the class' })
  joinedAt!: Date;
}

@ObjectType('ClassRoster', { description: "A class's learners, as its teacher sees them" })
export class RosterView {
  @Field(() => ID, { description: "The class's global id" })
  id!: string;

  @Field(() => String, { description: "The class's name" })
  name!: string;

  @Field(() => String, { description: 'The code learners join the class with' })
  joinCode!: string;

  @Field(() => ID, { description: 'The id of the school the class belongs to' })
  schoolId!: string;

  @Field(() => String, { description: "The school's name" })
  schoolName!: string;

  @Field(() => [RosterMember], { description: "The class's learners" })
  members!: RosterMember[];

  @Field(() => [ClassCourseView], { description: 'The courses assigned to the class' })
  courses!: ClassCourseView[];
}

@ObjectType({ description: "A learner of a class and their progress in the class's courses" })
export class ClassLearnerProgress {
  @Field(() => ID, { description: "The learner's id" })
  learnerId!: string;

  @Field(() => String, { description: "The name the learner's account shows" })
  displayName!: string;

  @Field(() => MembershipStatus, {
    description: "Whether the learner's progress is shown; pending_consent learners come without it",
  })
  status!: MembershipStatus;

  @Field(() => [CourseProgressView], { nullable: true, description: 'Null while the member is pending_consent' })
  courses!: CourseProgressView[] | null;
}

@ObjectType({ description: "The progress of a class's learners in its courses" })
export class ClassProgress {
  @Field(() => ID, { description: "The class's id" })
  classId!: string;

  @Field(() => [ClassCourseView], { description: 'The courses assigned to the class' })
  courses!: ClassCourseView[];

  @Field(() => [ClassLearnerProgress], { description: "The class's learners, with their progress when shown" })
  learners!: ClassLearnerProgress[];
}

/** A teacher's or school admin's classes, newest first. */
export const SchoolClassConnection = Connection(ClassView, 'SchoolClass');

/** A class's members, newest member first. */
export const ClassMemberConnection = Connection(RosterMember, 'ClassMember');

/** The classes a learner learns in, newest membership first. */
export const ClassMembershipConnection = Connection(ClassMembershipView, 'ClassMembership');
