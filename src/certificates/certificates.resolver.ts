import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { Context } from '../kernel/context';
import type { Certificate } from './certificate.entity';
import { CertificateCheck, CertificateView } from './certificates.types';

export function presentCertificate(c: Certificate): CertificateView {
  return { id: c.id, code: c.code, courseId: c.course.id, courseTitle: c.course.title, learnerName: c.learner.displayName, averageScore: c.averageScore, issuedAt: c.issuedAt };
}

@Resolver()
export class CertificatesResolver {
  @Query(() => [CertificateView], { description: "The caller's certificates" })
  async myCertificates(@Ctx() ctx: Context) {
    return (await ctx.services.certificates.listOf([ctx.auth.userId!])).map(presentCertificate);
  }

  @Query(() => CertificateView)
  async certificate(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return presentCertificate(await ctx.services.certificates.find(ctx.auth.userId!, id));
  }

  @Query(() => CertificateCheck, { description: 'Public: checks a certificate by its code' })
  verifyCertificate(@Arg('code', () => String) code: string, @Ctx() ctx: Context) {
    return ctx.services.certificates.verify(code);
  }
}
