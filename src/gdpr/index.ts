import { unlink } from 'node:fs/promises';
import { forgetQueuedMail } from '../mail/queue';
import { defineArea } from '../kernel/area';
import { GdprRequest, GdprRequestKind } from './gdpr-request.entity';
import { gdprDownloadRouter } from './gdpr.http';
import { ConsentType } from '../consent';
import { defineGdprJobs } from './gdpr.jobs';
import { Migration20261130000200_memory_revocations_told } from './migrations/Migration20261130000200_memory_revocations_told';
import { GdprResolver, gdprNodes } from './gdpr.resolver';
import { gdprRoutes } from './gdpr.routes';
import { gdprRules } from './gdpr.rules';
import { exportFile, GdprService } from './gdpr.service';
import { Migration20261123100000_gdpr_requests } from './migrations/Migration20261123100000_gdpr_requests';
import { Migration20261203000000_gdpr_lease_owner } from './migrations/Migration20261203000000_gdpr_lease_owner';
import { AiMemoryDeletion } from './memory-deletion.entity';
import { allRowsOf, plain } from '../kernel/personal-data';

export { apiBase } from './gdpr.links';

export { eraseDue, forgetRevokedMemories } from './gdpr.jobs';

declare module '../kernel/services' {
  interface Services {
    gdpr: GdprService;
  }
}

export const gdprArea = defineArea({
  name: 'gdpr',
  uses: ['ai', 'auth', 'certificates', 'consent', 'guardian'],
  entities: [GdprRequest, AiMemoryDeletion],
  resolvers: [GdprResolver],
  rules: gdprRules,
  nodes: gdprNodes,
  routes: gdprRoutes,
  http: (deps, context) => gdprDownloadRouter(deps, context),
  migrations: [
    { name: 'Migration20261123100000_gdpr_requests', class: Migration20261123100000_gdpr_requests },
    { name: 'Migration20261130000200_memory_revocations_told', class: Migration20261130000200_memory_revocations_told },
    { name: 'Migration20261203000000_gdpr_lease_owner', class: Migration20261203000000_gdpr_lease_owner },
  ],
  on: {
    // The AI backend is asked to forget (by the sweep's job, with retries) what ai_memory allowed it to keep.
    consentRevoked: (event, services) =>
      event.consentType === ConsentType.ai_memory && event.ledgerEntryId
        ? services.gdpr.memoryRevoked(event.ledgerEntryId, event.subjectId)
        : Promise.resolve(),
  },
  jobs: defineGdprJobs,
  services: { gdpr: (uow, services) => new GdprService(uow, services) },
  personalData: {
    entities: [GdprRequest, AiMemoryDeletion],
    export: async (userId, _services, uow) => ({
      requests: (
        await uow.em.find(
          GdprRequest,
          { $or: [{ subject: userId }, { requester: userId }] },
          { orderBy: { createdAt: 'asc' } },
        )
      ).map((r) => {
        const { progress: _progress, leaseUntil: _lease, leaseOwner: _owner, ...rest } = plain(r);
        return rest;
      }),
      aiMemoryDeletions: await allRowsOf(uow, AiMemoryDeletion, { subject: userId }),
    }),
    // The requests stay as the record of what was asked and done: the subject's id becomes the
    // pseudonym with the account (the foreign key cascades). Export files are deleted now.
    erase: async (userId, _pseudonym, services, uow) => {
      const exports = await uow.em.find(
        GdprRequest,
        { subject: userId, kind: GdprRequestKind.export },
        { fields: ['id'] },
      );
      for (const request of exports) await unlink(exportFile(uow.deps.config.DATA_DIR, request.id)).catch(() => {});
      // The AI backend forgets everything of the person (the ai area asks it), memory included.
      await uow.em.nativeDelete(AiMemoryDeletion, { subject: userId });
      // Mails still waiting in the queue for the person (their address, name, links) go too.
      const email = await services.auth.emailOf(userId);
      if (email) await forgetQueuedMail(uow, email);
    },
  },
});
