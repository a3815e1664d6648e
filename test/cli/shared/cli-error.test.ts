import { CliError, verboseReport } from '../../../src/cli/shared/cli-error';
import { ConfigurationException, type ConfigurationProblem } from '../../../src/jndi';

/** What `hornetq -v` prints about a failure (hornetq.ts writes it to stderr). */

function problem(line: number, message: string): ConfigurationProblem {
  return { file: '/etc/hornetq/hornetq-jms.xml', line, element: null, message };
}

const PROBLEMS = [problem(3, '<queue> has no name'), problem(9, '<ha> must be true or false')];

/** The report without stack frames. */
function withoutFrames(report: string): string[] {
  return report.split('\n').filter((line) => !/^\s+at /.test(line));
}

describe('verboseReport', () => {
  it('says each problem once, with file:line, however many errors wrap them', () => {
    const inner = new ConfigurationException(PROBLEMS);
    const again = Object.assign(new ConfigurationException(PROBLEMS), { cause: inner });
    const report = verboseReport(new CliError('cannot deploy the registry', 1, { cause: again }));
    expect(withoutFrames(report)).toEqual([
      'error: cannot deploy the registry',
      'error: /etc/hornetq/hornetq-jms.xml:3: <queue> has no name',
      'error: /etc/hornetq/hornetq-jms.xml:9: <ha> must be true or false',
      'CliError: cannot deploy the registry',
      'caused by:',
      'ConfigurationException: 2 problems, listed above',
      'caused by:',
      'ConfigurationException: 2 problems, listed above',
    ]);
    expect(report).toMatch(/^ {4}at /m);
  });

  it('a ConfigurationException is its problems alone', () => {
    const report = verboseReport(new ConfigurationException([problem(3, '<queue> has no name')]));
    expect(withoutFrames(report)).toEqual([
      'error: /etc/hornetq/hornetq-jms.xml:3: <queue> has no name',
      'ConfigurationException: 1 problem, listed above',
    ]);
  });

  it('any other error: its line, then each error of the chain with its message', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const report = verboseReport(new CliError('cannot connect to tcp://127.0.0.1:1', 1, { cause }));
    expect(withoutFrames(report)).toEqual([
      'error: cannot connect to tcp://127.0.0.1:1',
      'CliError: cannot connect to tcp://127.0.0.1:1',
      'caused by:',
      'Error: connect ECONNREFUSED 127.0.0.1:1',
    ]);
    expect(withoutFrames(verboseReport('a string'))).toEqual(['error: a string', 'a string']);
  });

  it('follows a cause chain that loops only so far', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.assign(first, { cause: second });
    expect(withoutFrames(verboseReport(first)).filter((line) => line === 'caused by:')).toHaveLength(7);
  });
});
