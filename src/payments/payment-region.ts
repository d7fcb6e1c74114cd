import { GLOBAL_REGION } from '../db/regions';
import type { Deps } from '../kernel/deps';
import { isId } from '../kernel/ids';
import { regionHolding } from '../kernel/region-lookup';
import type { ProviderEvent } from './providers/types';

/**
 * The region whose database holds the payment a provider's event names (by our id, the provider's
 * reference or its charge): a webhook comes without a token, and the payment is kept in its payer's
 * home region. Every region is asked at once; an event naming no known payment is global's to store.
 */
export async function regionOfEvent(deps: Deps, provider: string, event: ProviderEvent): Promise<string> {
  const named = paymentNamedBy(event);
  if (!named) return GLOBAL_REGION;
  const held = await regionHolding(
    deps,
    `select 1 from payments where ${named.column} = any(?) and provider = ? limit 1`,
    [named.values, provider],
  );
  return held?.region ?? GLOBAL_REGION;
}

function paymentNamedBy(event: ProviderEvent): { column: string; values: string[] } | null {
  if (event.kind === 'ignored') return null;
  if (event.paymentId && isId(event.paymentId)) return { column: 'id', values: [event.paymentId] };
  if (event.providerRef) return { column: 'provider_ref', values: [event.providerRef] };
  if (event.providerCharge)
    return { column: 'provider_charge', values: [event.providerCharge, ...(event.providerChargeAliases ?? [])] };
  return null;
}

/** The process seen from the region holding the payment of this id (global's when none does): the sandbox's page, opened by the payer's browser, carries no token. */
export async function regionOfPayment(deps: Deps, id: string): Promise<Deps> {
  const held = isId(id) ? await regionHolding(deps, 'select 1 from payments where id = ? limit 1', [id]) : null;
  return held ?? deps.inRegion(GLOBAL_REGION);
}
