import { promises as fs } from 'node:fs';
import { ConfigurationException } from '../configuration-exception';
import type { Problems } from '../problems';
import { placeholderVariable, substitutePlaceholders, type Environment } from '../xml/placeholders';
import { MAX_CONFIG_BYTES, parseXml } from '../xml/safe-xml-parser';
import type { XmlElement } from '../xml/xml-element';
import { unknownAttributeMessage } from './element-shape';
import { nearestName } from './nearest-name';

export const HORNETQ_NAMESPACE = 'urn:hornetq';

/** Reads a configuration file, refusing one too big to be a configuration file before reading it. */
export async function readConfigFile(file: string): Promise<string> {
  try {
    const stat = await fs.stat(file);
    if (stat.size > MAX_CONFIG_BYTES) {
      throw new ConfigurationException([
        { file, line: null, element: null, message: `the file is larger than ${MAX_CONFIG_BYTES} bytes` },
      ]);
    }
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ConfigurationException) throw error;
    throw new ConfigurationException([
      { file, line: null, element: null, message: `cannot be read: ${(error as Error).message}` },
    ]);
  }
}

/**
 * Fills the placeholders, parses safely and checks the root: `<configuration>` in HornetQ's
 * namespace (or none). Returns null when the file could not be parsed (problems say why).
 */
export function parseConfigDocument(source: string, env: Environment, problems: Problems): XmlElement | null {
  const filled = substitutePlaceholders(source, env, (placeholder) => {
    problems.errorAtLine(placeholder.line, unsetPlaceholderMessage(placeholder.name));
    problems.explain(placeholder.element);
  });
  const root = parseXml(filled, problems);
  if (root === null) return null;
  if (root.name !== 'configuration') {
    problems.error(root, 'is not a HornetQ configuration file: its root element must be <configuration>');
    return null;
  }
  for (const [name, value] of root.attributes) {
    if (name === 'xmlns') {
      if (value !== HORNETQ_NAMESPACE)
        problems.error(root, `must be in namespace ${HORNETQ_NAMESPACE} (actual: ${value})`);
    } else if (!name.startsWith('xmlns:') && !name.startsWith('xsi:')) {
      problems.error(
        root,
        unknownAttributeMessage(
          name,
          nearestName(name, ['xmlns', 'xsi:schemaLocation']),
          'xmlns, xmlns:*, xsi:schemaLocation',
        ),
      );
    }
  }
  return root;
}

/**
 * HornetQ reads `${name}` from a Java system property and quietly uses '' when there is none; an
 * empty password, port or directory is never what a file means, so here it is an error that says
 * how to give the value (the variable a shell can set first: `store.password` is not a name
 * `export` accepts).
 */
function unsetPlaceholderMessage(name: string): string {
  const variable = placeholderVariable(name);
  const variables = variable === name ? variable : `${variable} (or ${name})`;
  return `\${${name}} is not set: set the environment variable ${variables}, or give a default in the file as \${${name}:value} (\${${name}:} for an empty value)`;
}
