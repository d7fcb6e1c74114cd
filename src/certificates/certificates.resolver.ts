import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import type { NodeSource } from '../kernel/node';
import { PageArgs, pageOf, toConnection } from '../kernel/pagination';
import { certificatesRules } from './certificates.rules';
import type { Context } from '../kernel/context';
import type { Certificate } from './certificate.entity';
import { CertificateCheck, CertificateConnection, CertificateView } from './certificates.types';

export function presentCertificate(c: Certificate): CertificateView {
  return {
    id: c.id,
    code: c.code,
    courseId: c.course.id,
    courseTitle: c.course.title,
    learnerName: c.learner.displayName,
    averageScore: c.averageScore,
    issuedAt: c.issuedAt,
  };
}

@Resolver(() => UserView)
export class CertificatesUserEdges {
  @FieldResolver(() => CertificateConnection, {
    nullable: true,
    description: "The account's certificates, newest first (the account and a learner's active guardians)",
  })
  async certificates(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    const rows = (await ctx.services.certificates.certificatesOf(user.id)).map((c) => ({
      ...presentCertificate(c),
      createdAt: c.issuedAt,
    }));
    return toConnection(pageOf(rows, page.first, page.after));
  }
}

export const certificatesNodes: NodeSource[] = [
  {
    type: 'Certificate',
    table: 'certificates',
    rule: certificatesRules.Query.certificate,
    field: 'Query.certificate',
    loadMany: async (ctx, ids) =>
      (await ctx.services.certificates.findMany(ctx.auth.userId!, ids)).map(presentCertificate),
  },
];

@Resolver()
export class CertificatesResolver {
  @Query(() => [CertificateView], { description: "The caller's certificates" })
  async myCertificates(@Ctx() ctx: Context) {
    return (await ctx.services.certificates.listOf([ctx.auth.userId!])).map(presentCertificate);
  }

  @Query(() => CertificateView, { description: "One of the caller's own certificates" })
  async certificate(@Arg('id', () => ID, { description: 'The certificate to show' }) id: string, @Ctx() ctx: Context) {
    return presentCertificate(await ctx.services.certificates.find(ctx.auth.userId!, id));
  }

  @Query(() => CertificateCheck, { description: 'Public: checks a certificate by its code' })
  verifyCertificate(
    @Arg('code', () => String, { description: 'The code printed on the certificate' }) code: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.certificates.verify(code);
  }
}
