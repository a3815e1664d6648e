import { Command } from 'commander';
import { addConnectionOptions, type ConnectionOptions } from '../../../src/cli/shared/connection';

/** The user and password every broker command takes: options, or HORNETQ_USER / HORNETQ_PASSWORD. */

function parse(args: string[], env: Record<string, string>): ConnectionOptions {
  const saved = { user: process.env['HORNETQ_USER'], password: process.env['HORNETQ_PASSWORD'] };
  delete process.env['HORNETQ_USER'];
  delete process.env['HORNETQ_PASSWORD'];
  Object.assign(process.env, env);
  try {
    const command = addConnectionOptions(new Command('probe').exitOverride());
    command.parse(args, { from: 'user' });
    return command.opts<ConnectionOptions>();
  } finally {
    for (const [key, value] of [
      ['HORNETQ_USER', saved.user],
      ['HORNETQ_PASSWORD', saved.password],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe('connection options', () => {
  it('take the user and password from HORNETQ_USER and HORNETQ_PASSWORD', () => {
    expect(parse([], { HORNETQ_USER: 'bob', HORNETQ_PASSWORD: 's3cret' })).toMatchObject({
      user: 'bob',
      password: 's3cret',
    });
  });

  it('let --user and --password win over the environment', () => {
    const options = parse(['--user', 'alice', '--password', 'other'], {
      HORNETQ_USER: 'bob',
      HORNETQ_PASSWORD: 'x',
    });
    expect(options).toMatchObject({ user: 'alice', password: 'other' });
  });

  it('leave both unset when neither is given', () => {
    const options = parse([], {});
    expect(options.user).toBeUndefined();
    expect(options.password).toBeUndefined();
  });

  it('name the environment variables in --help, never a value', () => {
    const command = addConnectionOptions(new Command('probe'));
    process.env['HORNETQ_PASSWORD'] = 'not-shown';
    try {
      const help = command.helpInformation();
      expect(help).toContain('HORNETQ_USER');
      expect(help).toContain('HORNETQ_PASSWORD');
      expect(help).not.toContain('not-shown');
    } finally {
      delete process.env['HORNETQ_PASSWORD'];
    }
  });
});
