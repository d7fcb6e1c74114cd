import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bucketOf, evaluateFlag, type FlagRule, type FlagSubject } from '../../src/features/evaluate';

const teenLearnerVN: FlagSubject = { userId: randomUUID(), roles: ['learner'], tier: 'free', country: 'VN', age: 14 };
const proGuardianDE: FlagSubject = {
  userId: randomUUID(),
  roles: ['guardian', 'creator'],
  tier: 'pro',
  country: 'DE',
  age: 40,
};
const anonymous: FlagSubject = {};

const on = (rules: FlagRule[]) => ({ key: 'k', enabled: true, rules });

describe('evaluateFlag', () => {
  it.each<[string, { enabled: boolean; rules: FlagRule[] }, FlagSubject, boolean]>([
    ['disabled flag is off for everybody', { enabled: false, rules: [] }, proGuardianDE, false],
    [
      'disabled flag ignores matching rules',
      { enabled: false, rules: [{ roles: ['guardian'] }] },
      proGuardianDE,
      false,
    ],
    ['enabled flag without rules is on for everybody', on([]), anonymous, true],
    ['an empty rule holds for everybody', on([{}]), anonymous, true],
    ['role matches any of the roles', on([{ roles: ['creator', 'admin'] }]), proGuardianDE, true],
    ['role does not match', on([{ roles: ['admin'] }]), teenLearnerVN, false],
    ['role rules never hold for anonymous callers', on([{ roles: ['learner'] }]), anonymous, false],
    ['tier matches', on([{ tiers: ['pro'] }]), proGuardianDE, true],
    ['tier does not match', on([{ tiers: ['starter', 'pro'] }]), teenLearnerVN, false],
    ['country matches, case-insensitively', on([{ countries: ['vn'.toUpperCase()] }]), teenLearnerVN, true],
    ['country does not match', on([{ countries: ['US'] }]), teenLearnerVN, false],
    ['age within bounds', on([{ minAge: 13, maxAge: 17 }]), teenLearnerVN, true],
    ['age at the lower bound', on([{ minAge: 14 }]), teenLearnerVN, true],
    ['age above maxAge', on([{ maxAge: 13 }]), teenLearnerVN, false],
    ['age below minAge', on([{ minAge: 18 }]), teenLearnerVN, false],
    ['age rules need a known age', on([{ minAge: 0 }]), { ...proGuardianDE, age: null }, false],
    ['all criteria of a rule must hold', on([{ roles: ['learner'], countries: ['DE'] }]), teenLearnerVN, false],
    ['any rule may hold', on([{ countries: ['DE'] }, { roles: ['learner'] }]), teenLearnerVN, true],
    ['percentage 100 holds for everybody, anonymous too', on([{ percentage: 100 }]), anonymous, true],
    ['percentage 0 holds for nobody', on([{ percentage: 0 }]), proGuardianDE, false],
    ['a partial percentage never holds for anonymous callers', on([{ percentage: 99.99 }]), anonymous, false],
  ])('%s', (_name, flag, subject, expected) => {
    expect(evaluateFlag({ key: 'k', ...flag }, subject)).toBe(expected);
  });

  it('rolls a percentage out to close to that share of 10,000 users, the same users each time', () => {
    const users = Array.from({ length: 10_000 }, () => randomUUID());
    for (const percentage of [1, 10, 25, 50, 90]) {
      const flag = on([{ percentage }]);
      const chosen = users.filter((userId) => evaluateFlag({ ...flag, key: `rollout-${percentage}` }, { userId }));
      // Binomial: 4 standard deviations of 10,000 draws at most 200 users (2 points).
      expect(Math.abs(chosen.length / 100 - percentage), String(percentage)).toBeLessThan(2);
      const again = users.filter((userId) => evaluateFlag({ ...flag, key: `rollout-${percentage}` }, { userId }));
      expect(again).toEqual(chosen);
    }
    // Raising the share keeps everybody who had the feature.
    const at10 = new Set(
      users.filter((userId) => evaluateFlag({ key: 'grow', enabled: true, rules: [{ percentage: 10 }] }, { userId })),
    );
    const at30 = new Set(
      users.filter((userId) => evaluateFlag({ key: 'grow', enabled: true, rules: [{ percentage: 30 }] }, { userId })),
    );
    expect([...at10].every((id) => at30.has(id))).toBe(true);
    // Different flags choose different users.
    expect(
      bucketOf('a', users[0]) === bucketOf('b', users[0]) && bucketOf('a', users[1]) === bucketOf('b', users[1]),
    ).toBe(false);
  });
});
