import { ConfigurationException } from '../../../src';
import { parseServerConfiguration } from '../../../src/jndi/config/server-config-parser';
import { parseUsersConfiguration } from '../../../src/jndi/config/users-xml-reader';

/**
 * Role lists: HornetQ splits `roles` on commas, so `roles="admin demo"` would be one role that no
 * user has (everyone locked out, silently). Here it is an error at its line that shows the list
 * as meant.
 */
const server = (roles: string): string => `<configuration xmlns="urn:hornetq">
   <security-settings>
      <security-setting match="jms.queue.#">
         <permission type="consume" roles="admin"/>
         <permission type="send" roles="${roles}"/>
      </security-setting>
   </security-settings>
</configuration>`;

function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (error) {
    if (ConfigurationException.is(error)) return error.message.split('\n');
    throw error;
  }
  return [];
}

describe('role lists', () => {
  test('roles separated by commas, with or without blanks around them, are the roles', () => {
    for (const roles of ['admin,demo', 'admin, demo', ' admin ,  demo ', 'admin, demo,']) {
      const [setting] = parseServerConfiguration(server(roles), 'c.xml', { env: {} }).securitySettings;
      expect(setting?.permissions.get('send')).toEqual(['admin', 'demo']);
    }
  });

  test('roles separated by blanks are refused at their line, with the list as it was meant', () => {
    expect(problemsOf(() => parseServerConfiguration(server('admin demo'), 'c.xml', { env: {} }))).toEqual([
      'c.xml:5: <permission> roles="admin demo": roles are separated by commas: did you mean roles="admin, demo"?',
    ]);
    expect(
      problemsOf(() => parseServerConfiguration(server('admin, power users'), 'c.xml', { env: {} })),
    ).toEqual([
      'c.xml:5: <permission> roles="admin, power users": roles are separated by commas: did you mean roles="admin, power, users"?',
    ]);
  });

  test("a user's role with a blank or a comma inside is refused: one <role> per role", () => {
    const users = (role: string): string => `<configuration xmlns="urn:hornetq">
   <user name="bob" password="">
      <role name="admin"/>
      <role name="${role}"/>
   </user>
</configuration>`;
    expect(problemsOf(() => parseUsersConfiguration(users('ops team'), 'u.xml', { env: {} }))).toEqual([
      'u.xml:4: <role> name="ops team": a user\'s roles are one <role> element each: did you mean <role name="ops"/> <role name="team"/>?',
    ]);
    expect(problemsOf(() => parseUsersConfiguration(users('ops,dev'), 'u.xml', { env: {} }))).toEqual([
      'u.xml:4: <role> name="ops,dev": a user\'s roles are one <role> element each: did you mean <role name="ops"/> <role name="dev"/>?',
    ]);
    expect(parseUsersConfiguration(users('ops-team'), 'u.xml', { env: {} }).users[0]?.roles).toEqual([
      'admin',
      'ops-team',
    ]);
  });
});
