import { createHmac, randomUUID } from 'node:crypto';
import {
  InvalidSignature,
  type PaymentProvider,
  type ProviderEvent,
  type WebhookOutcome,
  type WebhookRequest,
} from './types';
import { sameText } from './sandbox';

export interface VnpaySettings {
  tmnCode: string;
  hashSecret: string;
  paymentUrl: string;
  apiUrl: string;
  baseUrl: string;
}

/** VNPay's encoding of a value in the signed data: form encoding, spaces as '+'. */
const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

/** The data VNPay signs: every vnp_ parameter but the hash itself, sorted by name, form-encoded, joined by '&'. */
export function vnpaySignData(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((key) => key.startsWith('vnp_') && key !== 'vnp_SecureHash' && key !== 'vnp_SecureHashType')
    .sort()
    .map((key) => `${encode(key)}=${encode(params[key])}`)
    .join('&');
}

export const vnpaySign = (secret: string, data: string) =>
  createHmac('sha512', secret).update(Buffer.from(data, 'utf8')).digest('hex');

/** yyyyMMddHHmmss in Viet Nam's time (GMT+7), as VNPay writes dates. */
export function vnpayDate(date: Date): string {
  return new Date(date.getTime() + 7 * 3600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

const answers: Record<WebhookOutcome, { RspCode: string; Message: string }> = {
  applied: { RspCode: '00', Message: 'Confirm Success' },
  replayed: { RspCode: '02', Message: 'Order already confirmed' },
  already_final: { RspCode: '02', Message: 'Order already confirmed' },
  unknown_payment: { RspCode: '01', Message: 'Order not found' },
  wrong_amount: { RspCode: '04', Message: 'Invalid amount' },
};

/** VNPay: a signed payment URL, the IPN (GET or POST) answered with RspCode, refunds through its transaction API. */
export function vnpayProvider(settings: VnpaySettings): PaymentProvider {
  return {
    name: 'vnpay',
    currencies: ['VND'],
    async start(payment) {
      const params: Record<string, string> = {
        vnp_Version: '2.1.0',
        vnp_Command: 'pay',
        vnp_TmnCode: settings.tmnCode,
        vnp_Amount: String(payment.amount * 100),
        vnp_CurrCode: 'VND',
        vnp_TxnRef: payment.id,
        vnp_OrderInfo: `Thanh toan ${payment.id}`,
        vnp_OrderType: 'other',
        vnp_Locale: 'vn',
        vnp_ReturnUrl: payment.returnUrl ?? `${settings.baseUrl}/payments/${payment.id}`,
        vnp_IpAddr: '127.0.0.1',
        vnp_CreateDate: vnpayDate(new Date()),
        vnp_ExpireDate: vnpayDate(payment.expiresAt),
      };
      const data = vnpaySignData(params);
      return {
        redirectUrl: `${settings.paymentUrl}?${data}&vnp_SecureHash=${vnpaySign(settings.hashSecret, data)}`,
        providerRef: payment.id,
      };
    },
    async refund(payment, refund) {
      const body: Record<string, string> = {
        vnp_RequestId: randomUUID().replace(/-/g, ''),
        vnp_Version: '2.1.0',
        vnp_Command: 'refund',
        vnp_TmnCode: settings.tmnCode,
        vnp_TransactionType: refund.full ? '02' : '03',
        vnp_TxnRef: payment.providerRef ?? payment.id,
        vnp_Amount: String(refund.amount * 100),
        vnp_TransactionNo: payment.providerCharge ?? '',
        vnp_TransactionDate: vnpayDate(payment.succeededAt ?? new Date()),
        vnp_CreateBy: 'learning-platform',
        vnp_CreateDate: vnpayDate(new Date()),
        vnp_IpAddr: '127.0.0.1',
        vnp_OrderInfo: `Hoan tien ${refund.id}`,
      };
      const order = [
        'vnp_RequestId',
        'vnp_Version',
        'vnp_Command',
        'vnp_TmnCode',
        'vnp_TransactionType',
        'vnp_TxnRef',
        'vnp_Amount',
        'vnp_TransactionNo',
        'vnp_TransactionDate',
        'vnp_CreateBy',
        'vnp_CreateDate',
        'vnp_IpAddr',
        'vnp_OrderInfo',
      ];
      body.vnp_SecureHash = vnpaySign(settings.hashSecret, order.map((key) => body[key]).join('|'));
      const response = await fetch(settings.apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      const answer = (await response.json().catch(() => ({}))) as {
        vnp_ResponseCode?: string;
        vnp_TransactionNo?: string;
      };
      if (!response.ok || answer.vnp_ResponseCode !== '00')
        throw new Error(`VNPay refused the refund (${answer.vnp_ResponseCode ?? response.status})`);
      return { providerRef: answer.vnp_TransactionNo ?? null, completed: true };
    },
    verify(request: WebhookRequest): ProviderEvent {
      const params: Record<string, string> =
        request.method === 'GET'
          ? request.query
          : Object.fromEntries(new URLSearchParams(request.rawBody.toString('utf8')));
      const given = params.vnp_SecureHash ?? '';
      if (!sameText(given.toLowerCase(), vnpaySign(settings.hashSecret, vnpaySignData(params))))
        throw new InvalidSignature();
      const paid = params.vnp_ResponseCode === '00' && (params.vnp_TransactionStatus ?? '00') === '00';
      return {
        eventId: `${params.vnp_TxnRef}:${params.vnp_TransactionNo ?? ''}:${params.vnp_ResponseCode}`,
        kind: paid ? 'payment_succeeded' : 'payment_failed',
        providerRef: params.vnp_TxnRef,
        providerCharge: params.vnp_TransactionNo,
        amount: Math.floor(Number(params.vnp_Amount) / 100),
        // VNPay takes only VND; its IPN names the currency when it sends vnp_CurrCode.
        currency: (params.vnp_CurrCode ?? 'VND').toUpperCase(),
        raw: params,
      };
    },
    answer: (outcome) => ({ status: 200, body: answers[outcome] }),
    refused: () => ({ status: 200, body: { RspCode: '97', Message: 'Invalid signature' } }),
  };
}
