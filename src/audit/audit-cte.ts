/**
 * An audit entry (as AuditService.record writes it) as a common table expression of the caller's
 * own statement, for a hot path that writes in one round trip (a payment's success). `param` adds
 * a value and answers its placeholder: placeholders are positional, so the SQL is written in push order.
 */
export function auditEntryCte(
  param: (value: unknown) => string,
  entry: {
    actorId: string | null;
    action: string;
    targetType: string;
    targetId: string;
    data: Record<string, unknown>;
  },
): string {
  return `audited as (insert into audit_entries (id, actor_id, action, target_type, target_id, data, created_at)
        values (gen_random_uuid(), ${param(entry.actorId)}, ${param(entry.action)}, ${param(entry.targetType)}, ${param(entry.targetId)}, ${param(JSON.stringify(entry.data))}::jsonb, now()))`;
}
