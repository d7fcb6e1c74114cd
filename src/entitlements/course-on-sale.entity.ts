import { Entity, Index, ManyToOne, PrimaryKey, PrimaryKeyProp } from '@mikro-orm/core';
import type { User } from '../auth';

/**
 * A course that a published product sells, with the course's author (who opens it while it is
 * sold). Entitlements keeps it and the catalog tells it (`EntitlementsService.offer`), so deciding
 * whether a course is paid reads no catalog or course table.
 */
@Entity({ tableName: 'courses_on_sale' })
@Index({ properties: ['productId'] })
export class CourseOnSale {
  [PrimaryKeyProp]?: ['courseId', 'productId'];

  @PrimaryKey({ type: 'uuid' })
  courseId!: string;

  @PrimaryKey({ type: 'uuid' })
  productId!: string;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  author: User | null = null;
}
