import { defineArea } from '../kernel/area';
import { AccountToken } from './account-token.entity';
import { AuthResolver } from './auth.resolver';
import { authRoutes } from './auth.routes';
import { authRules } from './auth.rules';
import { AuthService } from './auth.service';
import { RefreshToken } from './refresh-token.entity';
import { User } from './user.entity';

export { RefreshToken } from './refresh-token.entity';
export { ADULT_AGE } from './age';

export { UserView } from './auth.types';
export { normaliseEmail } from './auth.service';
export { ageOn } from './age';

export { AccountStatus, Locale, Role, Tier, User } from './user.entity';
export type { AuthService } from './auth.service';

declare module '../kernel/services' {
  interface Services {
    auth: AuthService;
  }
}

declare module '../kernel/context' {
  /** The caller, as the accounts area stores them. */
  interface Viewer extends User {}
}

export const authArea = defineArea({
  name: 'auth',
  entities: [User, RefreshToken, AccountToken],
  resolvers: [AuthResolver],
  rules: authRules,
  routes: authRoutes,
  services: { auth: (uow) => new AuthService(uow, uow.deps) },
  personalData: { entities: [User, RefreshToken, AccountToken] },
});
