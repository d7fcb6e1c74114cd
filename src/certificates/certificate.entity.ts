import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { User } from '../auth';
import type { Course } from '../courses';

/** Issued once per learner and course (the database holds it); checked by anyone by its code. */
@Entity({ tableName: 'certificates' })
@Unique({ properties: ['learner', 'course'] })
export class Certificate {
  [OptionalProps]?: 'issuedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  learner!: User;

  @ManyToOne('Course', { deleteRule: 'cascade' })
  course!: Course;

  @Property({ type: 'text', unique: true })
  code!: string;

  @Property({ type: 'smallint' })
  averageScore!: number;

  @Property({ type: 'timestamptz' })
  issuedAt: Date = new Date();
}
