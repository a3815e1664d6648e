import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BEGIN_MARKER,
  END_MARKER,
  generatedPage,
  REGENERATE_COMMAND,
  renderConnectionFactorySettings,
  withGeneratedSection,
} from './configuration-reference';
import { settingsOf } from '../../src/lang/settings';
import { CONNECTION_FACTORY_SETTINGS } from '../../src/jms/connection-factory-settings';

const PAGE = path.resolve(__dirname, '../../docs/reference/configuration.md');

describe('docs/reference/configuration.md', () => {
  const page = readFileSync(PAGE, 'utf8');

  test('holds the connection-factory settings exactly as the settings table generates them', () => {
    const expected = generatedPage(page, PAGE);
    if (expected !== page)
      throw new Error(
        `docs/reference/configuration.md differs from what the settings table generates: run \`${REGENERATE_COMMAND}\` and commit the page`,
      );
  });

  test('the generated section names every setting, element and setter of the table', () => {
    const section = renderConnectionFactorySettings();
    for (const [name, setting] of settingsOf(CONNECTION_FACTORY_SETTINGS)) {
      expect(section).toContain(`\`${name}\``);
      if (setting.element !== null) expect(section).toContain(`\`<${setting.element}>\``);
      if (setting.setter !== null) expect(section).toContain(`\`${setting.setter}()\``);
    }
  });

  test('a page without its markers is refused, naming them', () => {
    expect(() => withGeneratedSection('# no markers', 'x')).toThrow(BEGIN_MARKER);
    expect(() => withGeneratedSection(`${END_MARKER}\n${BEGIN_MARKER}`, 'x')).toThrow(END_MARKER);
  });
});
