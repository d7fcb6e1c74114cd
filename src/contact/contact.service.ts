import { randomUUID } from 'node:crypto';
import type { FilterQuery } from '@mikro-orm/core';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditService } from '../audit';
import { Locale, type User } from '../auth';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { sendMail } from '../mail/queue';
import { ContactMessage, ContactStatus } from './contact-message.entity';
import { acknowledgementMail, forwardMail } from './contact.mails';
import { messageAlreadyResolved, unknownMessage } from './contact.errors';

export interface ContactRequest {
  name: string;
  email: string;
  subject: string;
  message: string;
  locale?: Locale | null;
  /** The honeypot: people leave it empty; bots fill it in. */
  website?: string | null;
}

export class ContactService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly audit: AuditService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /**
   * Stores the message and, after commit, acknowledges it to the sender and forwards it to
   * CONTACT_TO. A filled honeypot gets the same answer, but nothing is stored or sent.
   */
  async send(request: ContactRequest): Promise<{ id: string }> {
    if (request.website && request.website.trim() !== '') return { id: randomUUID() };
    const message = await this.uow.transaction(async (em) => {
      const row = em.create(ContactMessage, {
        name: request.name.trim(),
        email: request.email.trim(),
        subject: request.subject.trim(),
        message: request.message.trim(),
        locale: request.locale ?? Locale.en,
      });
      await em.flush();
      await sendMail(this.uow, acknowledgementMail(row), forwardMail(row, this.uow.deps.config.CONTACT_TO));
      return row;
    });
    return { id: message.id };
  }

  async list(
    status: ContactStatus | null | undefined,
    first: number,
    after?: string | null,
  ): Promise<Page<ContactMessage>> {
    const where: FilterQuery<ContactMessage> = status ? { status } : {};
    const rows = await this.em.find(
      ContactMessage,
      { ...where, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return toPage(rows, first, after, () => this.em.count(ContactMessage, where));
  }

  /** The messages among these ids (the graph's `nodes`; admins only, by the rule of `contactMessages`). */
  byIds(ids: string[]): Promise<ContactMessage[]> {
    return this.em.find(ContactMessage, { id: { $in: ids.filter(isId) } });
  }

  async resolve(actor: User | null, id: string): Promise<ContactMessage> {
    if (!isId(id)) throw unknownMessage();
    return this.uow.transaction(async (em) => {
      const message = await em.findOne(ContactMessage, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!message) throw unknownMessage();
      if (message.status === ContactStatus.resolved) throw messageAlreadyResolved();
      message.status = ContactStatus.resolved;
      message.resolvedAt = new Date();
      em.assign(message, { resolvedBy: actor?.id ?? null });
      await this.audit.record({
        actor,
        action: 'contact.message_resolved',
        target: { type: 'contact_message', id: message.id },
      });
      return message;
    });
  }
}
