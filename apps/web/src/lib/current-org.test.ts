import { describe, expect, it } from 'vitest';
import { chooseCurrentOrg, type UserOrgs } from './current-org';

const org = (id: string, isHome = false) => ({ id, name: id, productSkus: [], isHome });
const homeOnly: UserOrgs = { homeOrgId: 'home', orgs: [org('home', true)] };
const withClients: UserOrgs = { homeOrgId: 'home', orgs: [org('acme'), org('home', true), org('zeta')] };

describe('chooseCurrentOrg', () => {
  it('takes the home organisation when there is no authorised one, whatever the address asks', () => {
    expect(chooseCurrentOrg(homeOnly, undefined)).toBe('home');
    expect(chooseCurrentOrg(homeOnly, 'elsewhere')).toBe('home');
  });

  it('takes the requested organisation when it is the home or an authorised one', () => {
    expect(chooseCurrentOrg(withClients, 'home')).toBe('home');
    expect(chooseCurrentOrg(withClients, 'zeta')).toBe('zeta');
  });

  it('asks the user to choose when nothing or an unknown organisation is requested', () => {
    expect(chooseCurrentOrg(withClients, undefined)).toBeNull();
    expect(chooseCurrentOrg(withClients, 'not-mine')).toBeNull();
  });
});
