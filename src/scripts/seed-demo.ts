import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, loadConfig } from '../config';
import { ConsentType } from '../consent';
import { Role, type User } from '../auth';
import type { Services } from '../kernel/services';
import { AppError } from '../kernel/errors';
import { createLogger } from '../logger';
import { closeDeps, createDeps } from '../server/deps';
import { openUnit } from '../server/platform';
import type { Deps } from '../kernel/deps';
import { withRegions } from './database';
import { type DemoCourse, demoCourses } from './demo-content';

/** The demo's accounts: fixed addresses, so a second run finds them. */
export const DEMO_ACCOUNTS = {
  admin: 'demo-admin@example.com',
  teacher: 'demo-teacher@example.com',
  guardian: 'demo-guardian@example.com',
  learner: 'demo-learner@example.com',
} as const;

/** The family's and the school's country: their accounts and the school live in its region's database. */
const COUNTRY = 'VN';
const SCHOOL = 'Demo Primary School';
const CLASS = 'Demo class 7A';
/** The learner's age: under Viet Nam's consent age (16), so the guardian's basic_data consent is what lets them learn. */
const LEARNER_AGE = 14;

/**
 * One password for every demo account: generated on the first run and kept in DATA_DIR (mode 0600,
 * like the database's own), so no well-known password ever opens an admin account, and a second
 * run prints the same one.
 */
function demoPassword(config: Config): string {
  const file = join(config.DATA_DIR, 'demo-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = `demo-${randomBytes(9).toString('base64url')}`;
  mkdirSync(config.DATA_DIR, { recursive: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** Each step in a unit of work of its own, as a request would be: its writes are committed when it answers. */
const step = <T>(deps: Deps, work: (services: Services) => Promise<T>): Promise<T> => work(openUnit(deps).services);

function birthDateOfAge(years: number): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years, date.getUTCMonth(), date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/** An account of the demo's country, in its home region's database. */
async function account(
  deps: Deps,
  email: string,
  password: string,
  displayName: string,
  role: Role,
  birthDate?: string,
): Promise<User> {
  return step(
    deps.inRegion(deps.homeRegionOf(COUNTRY)),
    async ({ auth }) =>
      (await auth.findUserByEmail(email)) ??
      auth.createVerifiedUser(email, password, displayName, role, { birthDate, country: COUNTRY }),
  );
}

/** The course (found by its English title among the published ones, else made), its exercise, and its product when it has a price. */
async function course(deps: Deps, admin: User, learner: User, demo: DemoCourse): Promise<string> {
  const id = await step(deps, async ({ courses }) => {
    const found = await courses.catalog(learner, { text: demo.course.title.en }, 10);
    return (
      found.nodes.find((c) => c.title.en === demo.course.title.en)?.id ??
      (await courses.createCourse(demo.course, admin.id)).id
    );
  });
  await step(deps, async ({ codelab, courses }) => {
    if ((await codelab.exercises({ courseId: id }, 1, null, [])).nodes.length) return;
    const [lesson] = (await courses.lessonsOf([id])).get(id) ?? [];
    await codelab.createExercise({ ...demo.exercise, courseId: id, lessonId: lesson?.id ?? null });
  });
  if (demo.price) {
    await step(deps, async ({ catalog, entitlements }) => {
      if (await entitlements.isPaidCourse(id)) return;
      const product = await catalog.createProduct(admin, {
        kind: 'course' as Parameters<Services['catalog']['createProduct']>[1]['kind'],
        title: demo.course.title,
        description: demo.course.description,
        prices: [{ currency: 'VND', amount: demo.price! }],
        courseIds: [id],
      });
      await catalog.setProductStatus(
        admin,
        product.id,
        'published' as Parameters<Services['catalog']['setProductStatus']>[2],
      );
    });
  }
  return id;
}

/**
 * Makes (or finds) the demo: an admin, a teacher with a school class, a guardian with a linked
 * learner who has the guardian's consent and sits in the class, and three courses with lessons and
 * CodeLab exercises, the last one paid (a published product). Everything goes through the services,
 * so their rules hold; every step looks for what an earlier run made first.
 */
export async function seedDemo(deps: Deps, password: string) {
  const admin = await step(deps, async ({ admin }) => (await admin.ensureAdmin(DEMO_ACCOUNTS.admin, password)).user);
  const teacher = await account(deps, DEMO_ACCOUNTS.teacher, password, 'Demo Teacher', Role.creator);
  const guardian = await account(deps, DEMO_ACCOUNTS.guardian, password, 'Demo Guardian', Role.guardian);
  const learner = await account(
    deps,
    DEMO_ACCOUNTS.learner,
    password,
    'Demo Learner',
    Role.learner,
    birthDateOfAge(LEARNER_AGE),
  );

  const home = deps.inRegion(deps.homeRegionOf(COUNTRY));
  await step(home, async ({ guardian: guardians }) => {
    if (await guardians.isActiveGuardianOf(guardian.id, learner.id)) return;
    const link = await guardians.declare(guardian, learner.email);
    if (link.status !== 'active') await guardians.approve(learner, link.id);
  });
  // basic_data lets the learner learn at all; progress_sharing lets the class's teacher see their
  // progress. At 14 both the guardian and the learner give them (docs/domain.md).
  for (const type of [ConsentType.basic_data, ConsentType.progress_sharing]) {
    if (await step(home, ({ consent }) => consent.hasConsent(learner.id, type))) continue;
    await step(home, ({ consent }) => consent.grant(guardian, type, learner.id));
    await step(home, ({ consent }) => consent.grant(learner, type));
  }

  const courseIds: string[] = [];
  for (const demo of demoCourses) courseIds.push(await course(deps, admin, learner, demo));

  await copiedTo(home, courseIds);
  const joinCode = await step(home, async ({ school }) => {
    let schoolClass = (await school.staffClassesOf(teacher.id)).find((c) => c.name === CLASS);
    if (!schoolClass) {
      const created = await school.createSchool(admin, SCHOOL, COUNTRY);
      await school.setMember(
        admin,
        created.id,
        teacher.email,
        'teacher' as Parameters<Services['school']['setMember']>[3],
      );
      schoolClass = await school.createClass(teacher, created.id, CLASS);
    }
    const roster = await school.roster(schoolClass.id);
    const assigned = new Set(roster.courses.map((c) => c.course.id));
    // The free courses: the class works through them; the paid one stays the family's choice.
    for (const id of courseIds.slice(0, 2))
      if (!assigned.has(id)) await school.assignCourse(teacher, schoolClass.id, id);
    if (!roster.members.some((m) => m.learner.id === learner.id)) await school.join(learner, schoolClass.joinCode);
    return schoolClass.joinCode;
  });
  return { courseIds, joinCode };
}

/** Waits until the courses, written in global's database, have reached the region's copy: its class is assigned them there. */
async function copiedTo(region: Deps, courseIds: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [{ n }] = await region.sql.unlogged<{ n: number }>(
      'select count(*)::int as n from courses where id = any(?)',
      [courseIds],
    );
    if (n === courseIds.length) return;
    if (Date.now() > deadline)
      throw new Error(`the demo's courses did not reach region ${region.region} within a minute`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main() {
  const config = loadConfig();
  const password = demoPassword(config);
  const { joinCode } = await withRegions(config, async (orm, databaseUrl, others) => {
    const deps = await createDeps(config, createLogger('warn'), orm, databaseUrl, others);
    try {
      return await seedDemo(deps, password);
    } finally {
      await closeDeps(deps);
    }
  });
  console.log('Demo data ready. Log in with (every account has the same password):');
  for (const [role, email] of Object.entries(DEMO_ACCOUNTS)) console.log(`  ${role.padEnd(9)}${email}`);
  console.log(`  password ${password}`);
  console.log(
    `The learner (${LEARNER_AGE}) is linked to the guardian; both gave basic_data and progress_sharing consent. The learner is in "${CLASS}" (join code ${joinCode}).`,
  );
  console.log(
    `Courses: ${demoCourses.map((d) => `${d.course.title.en}${d.price ? ` (${d.price} VND)` : ''}`).join('; ')}.`,
  );
}

main().catch((error) => {
  if (error instanceof AppError)
    console.error(
      `${error.message}${error.extra.details ? ` ${error.extra.details.map((d) => `${d.field}: ${d.message}`).join('; ')}` : ''}`,
    );
  else console.error(`seed:demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
