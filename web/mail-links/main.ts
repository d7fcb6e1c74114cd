// The pages the service's mails link to when no web app is configured (config.ts, PUBLIC_URL):
// verify an address, set a new password, approve a guardian's link. Each calls the REST API with
// the mailed token once the reader presses its button (a mail scanner that fetches the link must
// not verify or approve anything) and shows what the API answered, in the mail's language.
import { api, ApiFailure } from '../shared/api';

type Lang = 'en' | 'vi';
type Action = 'verify' | 'reset' | 'confirm';

interface Texts {
  title: string;
  intro: string;
  button: string;
  done: string;
}

const texts: Record<
  Lang,
  Record<Action, Texts> &
    Record<
      | 'badLink'
      | 'usedLink'
      | 'password'
      | 'repeat'
      | 'mismatch'
      | 'rejected'
      | 'verifyFirst'
      | 'busy'
      | 'failed'
      | 'notFound',
      string
    >
> = {
  en: {
    verify: {
      title: 'Verify your e-mail address',
      intro: 'Press the button to confirm that this address is yours.',
      button: 'Verify my address',
      done: 'Your address is verified. You can close this page and log in.',
    },
    reset: {
      title: 'Choose a new password',
      intro: 'Enter a new password of at least 10 characters. You will be logged out everywhere.',
      button: 'Set the new password',
      done: 'Your password is changed. Log in with the new one.',
    },
    confirm: {
      title: 'Approve your guardian',
      intro: 'A guardian asked to be linked to your account. Press the button if you know them and agree.',
      button: 'Approve the link',
      done: 'The link is approved: your guardian is now linked to your account.',
    },
    badLink: 'This link is incomplete: open it again from the mail.',
    usedLink: 'This link is invalid, expired or used already.',
    password: 'New password',
    repeat: 'The new password again',
    mismatch: 'The two passwords are not the same.',
    rejected: 'This password cannot be used:',
    verifyFirst: 'Verify your own e-mail address first (see the mail we sent you), then open this link again.',
    busy: 'Too many attempts: wait a minute and try again.',
    failed: 'Something went wrong:',
    notFound: 'This page does not exist.',
  },
  vi: {
    verify: {
      title: 'Xác minh địa chỉ e-mail',
      intro: 'Bấm nút để xác nhận địa chỉ này là của bạn.',
      button: 'Xác minh địa chỉ',
      done: 'Địa chỉ của bạn đã được xác minh. Bạn có thể đóng trang này và đăng nhập.',
    },
    reset: {
      title: 'Chọn mật khẩu mới',
      intro: 'Nhập mật khẩu mới có ít nhất 10 ký tự. Bạn sẽ bị đăng xuất khỏi mọi nơi.',
      button: 'Đặt mật khẩu mới',
      done: 'Mật khẩu của bạn đã được đổi. Hãy đăng nhập bằng mật khẩu mới.',
    },
    confirm: {
      title: 'Chấp thuận người giám hộ',
      intro: 'Một người giám hộ muốn liên kết với tài khoản của bạn. Bấm nút nếu bạn biết họ và đồng ý.',
      button: 'Chấp thuận liên kết',
      done: 'Liên kết đã được chấp thuận: người giám hộ đã được liên kết với tài khoản của bạn.',
    },
    badLink: 'Liên kết này không đầy đủ: hãy mở lại từ e-mail.',
    usedLink: 'Liên kết này không hợp lệ, đã hết hạn hoặc đã được dùng.',
    password: 'Mật khẩu mới',
    repeat: 'Nhập lại mật khẩu mới',
    mismatch: 'Hai mật khẩu không giống nhau.',
    rejected: 'Không thể dùng mật khẩu này:',
    verifyFirst: 'Hãy xác minh địa chỉ e-mail của bạn trước (xem e-mail chúng tôi đã gửi), rồi mở lại liên kết này.',
    busy: 'Quá nhiều lần thử: hãy đợi một phút rồi thử lại.',
    failed: 'Đã có lỗi:',
    notFound: 'Trang này không tồn tại.',
  },
};

/** Which page this is, from its path, and the REST call its button makes. */
const actions: Record<string, { action: Action; call: (token: string, password: string) => Promise<unknown> }> = {
  '/pages/verify-email': { action: 'verify', call: (token) => api('POST', '/auth/verify-email', null, { token }) },
  '/pages/reset-password': {
    action: 'reset',
    call: (token, password) => api('POST', '/auth/reset-password', null, { token, password }),
  },
  '/pages/guardian/confirm': {
    action: 'confirm',
    call: (token) => api('POST', '/guardian/links/confirm', null, { token }),
  },
};

const params = new URLSearchParams(location.search);
// The mail's language rides in its link; a link without one follows the browser.
const lang: Lang =
  params.get('lang') === 'vi' || (!params.get('lang') && navigator.language.toLowerCase().startsWith('vi'))
    ? 'vi'
    : 'en';
const t = texts[lang];
const token = params.get('token');
const page = actions[location.pathname.replace(/\/$/, '')];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('action-form');

function show(id: 'result' | 'error', message: string) {
  $('result').hidden = id !== 'result';
  $('error').hidden = id !== 'error';
  $(id).textContent = message;
}

function explain(error: unknown): string {
  if (!(error instanceof ApiFailure)) return `${t.failed} ${error instanceof Error ? error.message : String(error)}`;
  const fields = error.body.details?.map((d) => d.field) ?? [];
  if (error.body.error === 'validation_failed' && fields.includes('password'))
    return `${t.rejected} ${error.body.details!.map((d) => d.message).join('; ')}`;
  if (error.body.reason === 'learner_not_signed_up') return error.message;
  if (error.body.error === 'validation_failed' && fields.includes('token')) return t.usedLink;
  if (error.body.error === 'email_not_verified') return t.verifyFirst;
  if (error.body.error === 'rate_limited') return t.busy;
  return `${t.failed} ${error.message}`;
}

document.documentElement.lang = lang;
if (!page) {
  $('title').textContent = t.notFound;
} else {
  const text = t[page.action];
  document.title = text.title;
  $('title').textContent = text.title;
  $('intro').textContent = text.intro;
  $('action').textContent = text.button;
  $('password-text').textContent = t.password;
  $('repeat-text').textContent = t.repeat;
  const asksPassword = page.action === 'reset';
  $('password-label').hidden = $('repeat-label').hidden = !asksPassword;
  if (!token) show('error', t.badLink);
  else form.hidden = false;

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const password = String(data.get('password') ?? '');
    if (asksPassword && password !== data.get('repeat')) return show('error', t.mismatch);
    $<HTMLButtonElement>('action').disabled = true;
    try {
      await page.call(token!, password);
      form.hidden = $('intro').hidden = true;
      show('result', text.done);
    } catch (error) {
      show('error', explain(error));
    } finally {
      $<HTMLButtonElement>('action').disabled = false;
    }
  });
}
