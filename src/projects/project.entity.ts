import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';
import type { Language } from '../codelab';

export type Visibility = 'private' | 'unlisted' | 'public';

export interface ProjectFile {
  path: string;
  content: string;
}

/** Its table keeps the name CodeLab's migration gave it, when projects were part of CodeLab. */
@Entity({ tableName: 'codelab_projects' })
@Index({ properties: ['owner', 'createdAt', 'id'] })
export class Project {
  [OptionalProps]?: 'description' | 'visibility' | 'remixOf' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  owner!: User;

  @Property({ type: 'text' })
  title!: string;

  @Property({ type: 'text' })
  description: string = '';

  @Property({ type: 'text' })
  language!: Language;

  @Property({ type: 'jsonb' })
  files!: ProjectFile[];

  @Property({ type: 'text' })
  visibility: Visibility = 'private';

  /** The project this one was remixed from (kept as an id: the original may be deleted). */
  @Property({ type: 'uuid', nullable: true })
  remixOf: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
