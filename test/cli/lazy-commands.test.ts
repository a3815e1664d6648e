import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CLI, lines, ROOT, runProgram, tempDir, useCli } from './support';

/**
 * The command loads only the command it runs: `--help` and `--version` load none of the library,
 * and each command what it needs. A preloaded probe writes every module the process loaded.
 */
describe('hornetq loads only the command it runs', () => {
  useCli();

  async function modulesLoadedBy(args: string[]): Promise<{ stdout: string; modules: string[] }> {
    const dir = await tempDir();
    const probe = path.join(dir, 'probe.cjs');
    const report = path.join(dir, 'modules.json');
    await fs.writeFile(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));\n`,
    );
    const result = await runProgram(process.execPath, ['--require', probe, CLI, ...args]);
    expect(result.code).toBe(0);
    const loaded = JSON.parse(await fs.readFile(report, 'utf8')) as string[];
    return { stdout: result.stdout, modules: loaded.map((file) => path.relative(ROOT, file)) };
  }

  /** What the error report needs at start to recognise a configuration error: three small modules. */
  const ERROR_TYPES = [
    'dist/lang/brand.js',
    'dist/jndi/configuration-exception.js',
    'dist/jndi/jndi-error-code.js',
  ];
  const library = (modules: string[]): string[] =>
    modules.filter((m) => /^dist\/(core|jms|server|jndi)\//.test(m) && !ERROR_TYPES.includes(m));
  const packages = (modules: string[]): string[] =>
    [
      ...new Set(modules.map((m) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m)?.[1]).filter(Boolean)),
    ].sort() as string[];

  test('--version and --help load no part of the library but the error types, and --help still lists every command', async () => {
    const version = await modulesLoadedBy(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(library(version.modules)).toEqual([]);
    expect(packages(version.modules)).toEqual(['commander']);

    const help = await modulesLoadedBy(['--help']);
    expect(library(help.modules)).toEqual([]);
    const listed = lines(help.stdout)
      .map((line) => /^ {2}(\w+)\s/.exec(line)?.[1])
      .filter((name) => name !== undefined && name !== 'help');
    expect(listed).toEqual([
      'server',
      'producer',
      'consumer',
      'browse',
      'queue',
      'connection',
      'subscription',
      'jndi',
      'perf',
      'user',
      'config',
      'data',
    ]);
  });

  test('a command loads what it needs: user list neither the JMS client nor the broker log', async () => {
    const { modules } = await modulesLoadedBy(['user', 'list']);
    expect(modules.filter((m) => m.startsWith('dist/jms/') || m.startsWith('dist/core/client/'))).toEqual([]);
    expect(packages(modules)).not.toContain('pino');
  });

  test('the named command is loaded in full: its own help shows its options', async () => {
    const { stdout, modules } = await modulesLoadedBy(['producer', '--help']);
    expect(stdout).toContain('--destination <name>');
    expect(modules).toContain(path.join('dist', 'cli', 'commands', 'producer.js'));
    expect(modules).not.toContain(path.join('dist', 'cli', 'commands', 'server.js'));
  });
});
