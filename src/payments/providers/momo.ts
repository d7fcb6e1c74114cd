import { createHmac, randomUUID } from 'node:crypto';
import { InvalidSignature, type PaymentProvider, type ProviderEvent, type WebhookRequest } from './types';
import { sameText } from './sandbox';

export interface MomoSettings {
  partnerCode: string;
  accessKey: string;
  secretKey: string;
  apiUrl: string;
  baseUrl: string;
}

export const momoSign = (secret: string, fields: Record<string, string | number>) =>
  createHmac('sha256', secret)
    .update(
      Object.keys(fields)
        .sort()
        .map((key) => `${key}=${fields[key]}`)
        .join('&'),
    )
    .digest('hex');

/** The fields of an IPN that MoMo signs (with accessKey), in its order (alphabetical). */
export const MOMO_IPN_FIELDS = [
  'amount',
  'extraData',
  'message',
  'orderId',
  'orderInfo',
  'orderType',
  'partnerCode',
  'payType',
  'requestId',
  'responseTime',
  'resultCode',
  'transId',
] as const;

/** MoMo's wallet: create (captureWallet) and IPN, HMAC-SHA256 signatures, IPN answered 204; refunds by its API. */
export function momoProvider(settings: MomoSettings): PaymentProvider {
  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${settings.apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || answer.resultCode !== 0)
      throw new Error(`MoMo refused (${String(answer.resultCode ?? response.status)})`);
    return answer;
  };
  return {
    name: 'momo',
    currencies: ['VND'],
    async start(payment) {
      const fields = {
        accessKey: settings.accessKey,
        amount: payment.amount,
        extraData: '',
        ipnUrl: `${settings.baseUrl}/payments/webhooks/momo`,
        orderId: payment.id,
        orderInfo: `Thanh toan ${payment.id}`,
        partnerCode: settings.partnerCode,
        redirectUrl: payment.returnUrl ?? `${settings.baseUrl}/payments/${payment.id}`,
        requestId: payment.id,
        requestType: 'captureWallet',
      };
      const { accessKey: _omit, ...body } = fields;
      const answer = await post('/v2/gateway/api/create', {
        ...body,
        lang: 'vi',
        signature: momoSign(settings.secretKey, fields),
      });
      return { redirectUrl: String(answer.payUrl), providerRef: payment.id };
    },
    async refund(payment, refund) {
      const fields = {
        accessKey: settings.accessKey,
        amount: refund.amount,
        description: refund.reason.slice(0, 100),
        orderId: refund.id,
        partnerCode: settings.partnerCode,
        requestId: randomUUID(),
        transId: payment.providerCharge ?? '',
      };
      const { accessKey: _omit, ...body } = fields;
      const answer = await post('/v2/gateway/api/refund', {
        ...body,
        lang: 'vi',
        signature: momoSign(settings.secretKey, fields),
      });
      return { providerRef: answer.transId === undefined ? null : String(answer.transId), completed: true };
    },
    verify(request: WebhookRequest): ProviderEvent {
      let ipn: Record<string, string | number>;
      try {
        ipn = JSON.parse(request.rawBody.toString('utf8')) as Record<string, string | number>;
      } catch {
        throw new InvalidSignature();
      }
      const fields: Record<string, string | number> = { accessKey: settings.accessKey };
      for (const key of MOMO_IPN_FIELDS) fields[key] = ipn[key] ?? '';
      if (typeof ipn.signature !== 'string' || !sameText(ipn.signature, momoSign(settings.secretKey, fields)))
        throw new InvalidSignature();
      const paid = Number(ipn.resultCode) === 0 || Number(ipn.resultCode) === 9000;
      return {
        eventId: `${ipn.orderId}:${ipn.transId}:${ipn.resultCode}`,
        kind: paid ? 'payment_succeeded' : 'payment_failed',
        providerRef: String(ipn.orderId),
        providerCharge: String(ipn.transId),
        amount: Number(ipn.amount),
        // MoMo's IPN carries no currency: MoMo takes only VND.
        currency: 'VND',
        raw: ipn,
      };
    },
    answer: () => ({ status: 204 }),
  };
}
