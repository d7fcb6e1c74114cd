import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  messageId: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  /** When each message was offered (MAIL FROM), and whether it was refused. */
  const attempts: { at: number; refused: boolean }[] = [];
  let refusing = 0;
  let answerAfterMs = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      const refused = refusing > 0;
      attempts.push({ at: Date.now(), refused });
      if (!refused) return callback();
      refusing--;
      callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail: ParsedMail) => {
          const to = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? ''));
          // Kept once answered: a mail whose sender gave up waiting was not delivered.
          setTimeout(() => {
            received.push({ to, subject: mail.subject ?? '', text: mail.text ?? '', messageId: mail.messageId ?? '' });
            callback();
          }, answerAfterMs);
        })
        .catch(callback);
    },
  });
  // A client that dies mid-conversation (an instance killed with SIGKILL) resets its connection:
  // the server goes on serving the others, as a real one does. Unheard, the error ended the process.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    attempts,
    /** The next `count` messages offered are refused with 451 (a temporary failure). */
    refuseNext(count: number) {
      refusing = count;
    },
    /** Each message is answered (and kept) this long after it arrived: a slow mail server. */
    answerAfter(ms: number) {
      answerAfterMs = ms;
    },
    /** The first mail to `to` whose subject matches, waiting for it to arrive. */
    async waitFor(to: string, subject: RegExp = /./, timeoutMs = 5000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => m.to.includes(to) && subject.test(m.subject));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** The token a mail carries (`token=...` in its link). */
export function tokenFrom(mail: ReceivedMail): string {
  const match = /token=([\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no token in mail "${mail.subject}"`);
  return match[1];
}
