import { promises as fs } from 'node:fs';
import { ConfigurationException } from '../configuration-exception';
import type { Problems } from '../problems';
import { substitutePlaceholders, type Environment } from '../xml/placeholders';
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
  const filled = substitutePlaceholders(source, env, ({ name, line }) =>
    problems.warnAtLine(
      line,
      `placeholder \${${name}} has no value (no environment variable ${name} or ${name.toUpperCase().replace(/[.-]/g, '_')}) and no default: replaced by ''`,
      `placeholder:${name}`,
    ),
  );
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
