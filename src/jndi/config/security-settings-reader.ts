import type { Problems } from '../problems';
import type { XmlElement } from '../xml/xml-element';
import { checkShape } from './element-shape';
import { isUsableMatch } from './match-attribute';
import { readRoleList } from './role-names';
import type { Permission, SecuritySetting } from './server-configuration';

/** Permission types (HornetQ 2.4 CheckType), with the two legacy names HornetQ still reads. */
const PERMISSIONS = new Map<string, Permission>([
  ['send', 'send'],
  ['consume', 'consume'],
  ['createDurableQueue', 'createDurableQueue'],
  ['deleteDurableQueue', 'deleteDurableQueue'],
  ['createNonDurableQueue', 'createNonDurableQueue'],
  ['deleteNonDurableQueue', 'deleteNonDurableQueue'],
  ['createTempQueue', 'createNonDurableQueue'],
  ['deleteTempQueue', 'deleteNonDurableQueue'],
  ['manage', 'manage'],
]);

/** Reads `<security-settings>`: each match (once) and the roles given each permission. */
export function readSecuritySettings(section: XmlElement, problems: Problems): SecuritySetting[] {
  const settings: SecuritySetting[] = [];
  const children = checkShape(section, { children: new Map([['security-setting', 'many']]) }, problems);
  for (const element of children.get('security-setting') ?? []) {
    const match = element.attributes.get('match');
    const permissions = readPermissions(element, problems);
    if (match === undefined || match.trim() === '' || !isUsableMatch(element, match, problems)) continue;
    const previous = settings.find((setting) => setting.match === match);
    if (previous !== undefined) {
      problems.error(element, `match '${match}' is already set at line ${previous.line}`);
      continue;
    }
    settings.push({ match, line: element.line, permissions });
  }
  return settings;
}

function readPermissions(element: XmlElement, problems: Problems): Map<Permission, string[]> {
  const permissions = new Map<Permission, string[]>();
  const children = checkShape(
    element,
    { required: ['match'], children: new Map([['permission', 'many']]) },
    problems,
  );
  for (const child of children.get('permission') ?? []) {
    checkShape(child, { required: ['type', 'roles'] }, problems);
    const type = child.attributes.get('type');
    const roles = child.attributes.get('roles');
    if (type === undefined || roles === undefined) continue;
    const permission = PERMISSIONS.get(type);
    if (permission === undefined) {
      problems.error(
        child,
        `unknown permission type '${type}' (expected one of: ${[...PERMISSIONS.keys()].join(', ')})`,
      );
      continue;
    }
    const list = permissions.get(permission) ?? [];
    for (const role of readRoleList(child, roles, problems)) if (!list.includes(role)) list.push(role);
    permissions.set(permission, list);
  }
  return permissions;
}
