import { Role } from '../../src/auth/user.entity';
import { ConsentType } from '../../src/consent/consent.entity';
import { run, serveUntilTold, startBenchService } from '../support';

/** The service under measure, in a process of its own, with one learner allowed to chat. */
run(async () => {
  const service = await startBenchService({ AI_QUOTA_FREE: '100000000' });
  const { auth, consent } = service.services;
  const session = await auth.signup({ email: `bench-${Date.now()}@example.com`, password: 'a benchmark password', displayName: 'Bench', role: Role.learner, birthDate: '1990-01-01', country: 'VN' });
  await consent.grant(session.user, ConsentType.ai_conversation);
  serveUntilTold({ url: service.url, token: session.accessToken }, service.stop);
});
