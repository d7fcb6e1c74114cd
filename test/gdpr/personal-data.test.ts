import type { EntityMetadata } from '@mikro-orm/core';
import { ReferenceKind } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas } from '../../src/areas';
import { startTestApp, type TestApp } from '../support/app';

/** A column that holds a user's id without a relation: `userId`, `learnerId`, `requesterId`, ... */
const USER_ID_COLUMN =
  /^(user|learner|guardian|owner|author|actor|requester|subject|creator|recipient|payer|beneficiary)Id$/i;

/**
 * The entities that refer to a user: a relation to User, or a user-id column (directly), or a
 * relation that cascades from an entity that belongs to a user (through it). A nullable relation
 * that merely points at a user (a course's author) makes that entity refer to the user, but the
 * rows that hang below it (the course's lessons) are not the user's.
 */
function entitiesReferringToUsers(metadata: EntityMetadata[]): Map<string, string> {
  const user = metadata.find((meta) => meta.tableName === 'users');
  if (!user) throw new Error('no users table in the model');
  const refers = new Map<string, string>([[user.className, 'is the user']]);
  const belongs = new Set<string>([user.className]);
  for (let grew = true; grew;) {
    grew = false;
    for (const meta of metadata) {
      if (meta.embeddable || meta.virtual) continue;
      for (const prop of Object.values(meta.properties)) {
        const relation =
          prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner);
        const target = prop.targetMeta?.className ?? prop.type;
        let why: string | undefined;
        let owned = false;
        if (relation && target === user.className) {
          why = `${prop.name} is a relation to ${user.className}`;
          owned = !prop.nullable;
        } else if (relation && belongs.has(target) && prop.deleteRule === 'cascade') {
          why = `${prop.name} belongs to ${target}, which belongs to a user`;
          owned = true;
        } else if (!relation && USER_ID_COLUMN.test(prop.name)) {
          why = `${prop.name} holds a user's id`;
        }
        if (!why) continue;
        if (!refers.has(meta.className)) {
          refers.set(meta.className, why);
          grew = true;
        }
        if (owned && !belongs.has(meta.className)) {
          belongs.add(meta.className);
          grew = true;
        }
      }
    }
  }
  return refers;
}

describe('personal data is claimed by an area', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('every entity that refers to a user is claimed by some area', () => {
    const metadata = Object.values(t.app.deps.orm.getMetadata().getAll());
    const referring = entitiesReferringToUsers(metadata);
    const claimed = new Set(areas.flatMap((area) => area.personalData?.entities ?? []).map((entity) => entity.name));
    const unclaimed = [...referring].filter(([name]) => !claimed.has(name)).map(([name, why]) => `${name} (${why})`);
    expect(unclaimed).toEqual([]);
    // The check finds something: the obvious ones are among the referring entities.
    expect([...referring.keys()]).toEqual(
      expect.arrayContaining(['User', 'Notification', 'ConsentLedgerEntry', 'GenerationStage']),
    );
  });

  it('an area that claims entities can export and erase them', () => {
    for (const area of areas) {
      if (!area.personalData?.entities.length) continue;
      expect(typeof area.personalData.export, `${area.name} export`).toBe('function');
      expect(typeof area.personalData.erase, `${area.name} erase`).toBe('function');
    }
  });

  it('no entity is claimed by two areas', () => {
    const seen = new Map<string, string>();
    for (const area of areas) {
      for (const entity of area.personalData?.entities ?? []) {
        expect(
          seen.get(entity.name),
          `${entity.name} claimed by ${seen.get(entity.name)} and ${area.name}`,
        ).toBeUndefined();
        seen.set(entity.name, area.name);
      }
    }
  });
});
