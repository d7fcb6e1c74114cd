import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { User } from '../auth';
import type { Course } from '../courses';
import { isId } from '../kernel/ids';
import { regionHolding } from '../kernel/region-lookup';
import { Certificate } from './certificate.entity';
import { certificatePdf } from './certificate.pdf';
import type { Localized } from '../kernel/localized';
import { unknownCertificate } from './certificates.errors';

/** What anybody may learn from a certificate's code: nothing more. */
/** A certificate as lists show it, read without entities. */
export interface CertificateSummary {
  id: string;
  code: string;
  learnerId: string;
  learnerName: string;
  courseId: string;
  courseTitle: Localized;
  averageScore: number;
  issuedAt: Date;
}

export interface PublicCertificate {
  code: string;
  learnerName: string;
  courseTitle: { en: string; vi: string };
  issuedAt: Date;
}

export class CertificatesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly publicUrl: string,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /** Certificates issued on the platform, for its figures. */
  issuedCount(): Promise<number> {
    return this.em.count(Certificate, {});
  }

  /**
   * Issues the certificate unless it exists: one insert that the unique key decides, so two
   * lessons completed at the same moment still make one certificate and one notification.
   */
  async issue(learner: User, course: Course, averageScore: number): Promise<void> {
    const code = randomBytes(6).toString('hex').toUpperCase();
    const inserted = await this.em.execute<{ id: string }[]>(
      `insert into certificates (id, learner_id, course_id, code, average_score, issued_at) values (gen_random_uuid(), ?, ?, ?, ?, now())
       on conflict (learner_id, course_id) do nothing returning id`,
      [learner.id, course.id, code, Math.round(averageScore)],
    );
    if (!inserted.length) return;
    await this.uow.raise({
      type: 'certificate.issued',
      certificateId: inserted[0].id,
      code,
      learnerId: learner.id,
      learnerName: learner.displayName,
      courseId: course.id,
      courseTitle: { en: course.title.en, vi: course.title.vi },
    });
  }

  /**
   * Certificates of many learners in one statement, newest first, as lists show them: without
   * entities, whose joined hydration (course and learner) cost several times the statement on
   * every guardian dashboard.
   */
  async summariesOf(learnerIds: string[]): Promise<CertificateSummary[]> {
    if (!learnerIds.length) return [];
    const rows = await this.em.execute<Record<string, unknown>[]>(
      `select c.id, c.code, c.learner_id, l.display_name, c.course_id, co.title, c.average_score, c.issued_at
       from certificates as c inner join course_titles as co on c.course_id = co.id inner join account_profiles as l on c.learner_id = l.id
       where c.learner_id = any(?::uuid[]) order by c.issued_at desc, c.id desc`,
      [`{${learnerIds.join(',')}}`],
    );
    return rows.map((r) => ({
      id: r.id as string,
      code: r.code as string,
      learnerId: r.learner_id as string,
      learnerName: r.display_name as string,
      courseId: r.course_id as string,
      courseTitle: r.title as Localized,
      averageScore: Number(r.average_score),
      issuedAt: new Date(r.issued_at as string),
    }));
  }

  /** Certificates of many learners in one query, newest first. */
  listOf(learnerIds: string[]): Promise<Certificate[]> {
    if (!learnerIds.length) return Promise.resolve([]);
    return this.em.find(
      Certificate,
      { learner: { $in: learnerIds } },
      { populate: ['course', 'learner'], orderBy: { issuedAt: 'desc', id: 'desc' } },
    );
  }

  /** Each learner's certificates, batched over the learners a query walks to. */
  certificatesOf(learnerId: string): Promise<Certificate[]> {
    return this.uow.children(
      'certificates.byLearner',
      learnerId,
      (ids) => this.listOf(ids),
      (c) => c.learner.id,
    );
  }

  async find(learnerId: string, id: string): Promise<Certificate> {
    const certificate = isId(id)
      ? await this.em.findOne(Certificate, { id, learner: learnerId }, { populate: ['course', 'learner'] })
      : null;
    if (!certificate) throw unknownCertificate();
    return certificate;
  }

  /** The learner's certificates among these ids, as `find` reads one (the graph's `nodes`). */
  findMany(learnerId: string, ids: string[]): Promise<Certificate[]> {
    return this.em.find(
      Certificate,
      { id: { $in: ids.filter(isId) }, learner: learnerId },
      { populate: ['course', 'learner'] },
    );
  }

  /**
   * Anybody may check a code, without an account (served from global): the certificate is read in
   * its learner's home region, whose database keeps it.
   */
  async verify(code: string): Promise<PublicCertificate> {
    if (!/^[0-9A-F]{12}$/.test(code)) throw unknownCertificate();
    const held = await regionHolding(this.uow.deps, 'select 1 from certificates where code = ? limit 1', [code]);
    if (!held) throw unknownCertificate();
    return held.region === this.uow.deps.region
      ? this.verifyHere(code)
      : held.unit().services.certificates.verifyHere(code);
  }

  private async verifyHere(code: string): Promise<PublicCertificate> {
    const certificate = await this.em.findOne(Certificate, { code }, { populate: ['course', 'learner'] });
    if (!certificate) throw unknownCertificate();
    return {
      code,
      learnerName: certificate.learner.displayName,
      courseTitle: certificate.course.title,
      issuedAt: certificate.issuedAt,
    };
  }

  async pdf(learnerId: string, id: string): Promise<Buffer> {
    const certificate = await this.find(learnerId, id);
    return certificatePdf(certificate, `${this.publicUrl.replace(/\/$/, '')}/certificates/verify/${certificate.code}`);
  }
}
