import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { User } from '../auth';
import type { Course } from '../courses';

/** A person's role in one school (not a global role). */
export enum SchoolRole {
  school_admin = 'school_admin',
  teacher = 'teacher',
}

@Entity({ tableName: 'schools' })
export class School {
  [OptionalProps]?: 'createdAt' | 'createdBy';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'string', columnType: 'char(2)' })
  country!: string;

  // An account of any region (a platform admin is global's): not a foreign key to this database's users.
  @ManyToOne('User', { nullable: true, createForeignKeyConstraint: false })
  createdBy: User | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/** A school's staff: one role per person and school. */
@Entity({ tableName: 'school_members' })
@Unique({ properties: ['school', 'user'] })
@Index({ properties: ['user'] })
export class SchoolMember {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => School, { deleteRule: 'cascade' })
  school!: School;

  @ManyToOne('User', { deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: () => SchoolRole })
  role!: SchoolRole;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

@Entity({ tableName: 'school_classes' })
@Index({ properties: ['school'] })
export class SchoolClass {
  [OptionalProps]?: 'createdAt' | 'codeRotatedAt' | 'createdBy';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => School, { deleteRule: 'cascade' })
  school!: School;

  @Property({ type: 'text' })
  name!: string;

  /** 8 characters of an alphabet without look-alikes; replaced on rotation (the old one stops working). */
  @Property({ type: 'text', unique: true })
  joinCode!: string;

  // An account of any region (a platform admin is global's): not a foreign key to this database's users.
  @ManyToOne('User', { nullable: true, createForeignKeyConstraint: false })
  createdBy: User | null = null;

  @Property({ type: 'timestamptz' })
  codeRotatedAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/**
 * A learner in a class. Whether their progress shows is decided when it is read (a guardian's
 * progress_sharing consent for learners under 18), so a revoked consent hides it at once.
 */
@Entity({ tableName: 'class_members' })
@Unique({ properties: ['schoolClass', 'learner'] })
@Index({ properties: ['learner'] })
export class ClassMember {
  [OptionalProps]?: 'joinedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => SchoolClass, { deleteRule: 'cascade' })
  schoolClass!: SchoolClass;

  @ManyToOne('User', { deleteRule: 'cascade' })
  learner!: User;

  @Property({ type: 'timestamptz' })
  joinedAt: Date = new Date();
}

/** A course the class is asked to take. */
@Entity({ tableName: 'class_courses' })
@Unique({ properties: ['schoolClass', 'course'] })
export class ClassCourse {
  [OptionalProps]?: 'assignedAt' | 'assignedBy';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => SchoolClass, { deleteRule: 'cascade' })
  schoolClass!: SchoolClass;

  @ManyToOne('Course', { deleteRule: 'cascade' })
  course!: Course;

  // An account of any region (a platform admin is global's): not a foreign key to this database's users.
  @ManyToOne('User', { nullable: true, createForeignKeyConstraint: false })
  assignedBy: User | null = null;

  @Property({ type: 'timestamptz' })
  assignedAt: Date = new Date();
}
