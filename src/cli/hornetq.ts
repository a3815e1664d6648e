#!/usr/bin/env node
/**
 * The `hornetq` command: run a broker, send and receive, browse, look at queues and at the
 * registry, measure. Mistakes (a bad option, an unknown name, no broker there, a bad file) are one
 * line on stderr and exit code 1; --verbose adds the details and the stack.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { browseCommand } from './commands/browse';
import { configCommand } from './commands/config';
import { consumerCommand } from './commands/consumer';
import { jndiCommand } from './commands/jndi';
import { perfCommand } from './commands/perf';
import { producerCommand } from './commands/producer';
import { queueCommand } from './commands/queue';
import { serverCommand } from './commands/server';
import { userCommand } from './commands/user';
import { CliError, errorLine, verboseReport } from './shared/cli-error';

/** A command that has finished but whose process lingers (a stray handle) is ended after this. */
const EXIT_GRACE_MS = 2000;

export function createProgram(): Command {
  const program = new Command('hornetq')
    .description("HornetQ's JMS broker and tools for Node.js")
    .version(packageVersion(), '-V, --version')
    .option('-v, --verbose', 'on failure, print every detail and the stack trace')
    .showSuggestionAfterError(true);
  for (const command of [
    serverCommand(),
    producerCommand(),
    consumerCommand(),
    browseCommand(),
    queueCommand(),
    jndiCommand(),
    perfCommand(),
    userCommand(),
    configCommand(),
  ]) {
    program.addCommand(command);
  }
  oneLineErrors(program);
  return program;
}

/** Commander puts its "(Did you mean ...?)" on a line of its own: keep each mistake to one line. */
function oneLineErrors(command: Command): void {
  command.configureOutput({
    outputError: (text, write) => write(`${text.trim().replace(/\s*\n\s*/g, ' ')}\n`),
  });
  for (const sub of command.commands) oneLineErrors(sub);
}

async function main(argv: string[]): Promise<void> {
  const program = createProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const verbose = program.opts<{ verbose?: boolean }>().verbose === true || argv.includes('--verbose');
    process.stderr.write(verbose ? `${verboseReport(error)}\n` : `error: ${errorLine(error)}\n`);
    process.exitCode = CliError.is(error) ? error.exitCode : 1;
  }
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
}

function packageVersion(): string {
  try {
    const file = path.join(__dirname, '..', '..', 'package.json');
    const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

if (require.main === module) void main(process.argv);
