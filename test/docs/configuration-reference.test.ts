import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  beginMarker,
  endMarker,
  generatedPage,
  REGENERATE_COMMAND,
  renderBrokerLimits,
  renderConnectionFactorySettings,
  withGeneratedSection,
} from './configuration-reference';
import { settingsOf } from '../../src/lang/settings';
import { CONNECTION_FACTORY_SETTINGS } from '../../src/jms/connection-factory-settings';
import { BROKER_LIMIT_SETTINGS } from '../../src/server/broker-limit-settings';

const PAGE = path.resolve(__dirname, '../../docs/reference/configuration.md');

describe('docs/reference/configuration.md', () => {
  const page = readFileSync(PAGE, 'utf8');

  test('holds the connection-factory settings and broker limits exactly as the settings tables generate them', () => {
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

  test('the broker limits section names every limit and its element', () => {
    const section = renderBrokerLimits();
    for (const [name, setting] of settingsOf(BROKER_LIMIT_SETTINGS))
      expect([section.includes(`\`${name}\``), section.includes(`\`<${setting.element}>\``)]).toEqual([
        true,
        true,
      ]);
  });

  test('a page without its markers is refused, naming them', () => {
    const name = 'broker limits';
    expect(() => withGeneratedSection('# no markers', name, 'x')).toThrow(beginMarker(name));
    expect(() => withGeneratedSection(`${endMarker(name)}\n${beginMarker(name)}`, name, 'x')).toThrow(
      endMarker(name),
    );
  });
});
