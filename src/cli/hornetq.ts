#!/usr/bin/env node
/**
 * The `hornetq` command: run a broker, send and receive, browse, look at queues and at the
 * registry, measure. Mistakes (a bad option, an unknown name, no broker there, a bad file) are one
 * line on stderr and exit code 1; --verbose adds the details and the stack.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { CliError, errorLine, verboseReport } from './shared/cli-error';

/** A command that has finished but whose process lingers (a stray handle) is ended after this. */
const EXIT_GRACE_MS = 2000;

interface CommandEntry {
  readonly name: string;
  readonly description: string;
  /** The command with its options and actions; imported only when it is the one run (or asked for help). */
  readonly load: () => Promise<Command>;
}

/**
 * Every command, in the order `hornetq --help` lists them. Each is loaded only when it runs: a
 * command module pulls in the library parts and packages it needs (the broker and pino for
 * `server`, the JMS client for `producer`...), and `--help`, `--version` or `user list` should not
 * wait for all of them.
 */
const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'server',
    description: 'run a broker from hornetq-configuration.xml and hornetq-jms.xml until Ctrl-C or SIGTERM',
    load: async () => (await import('./commands/server.js')).serverCommand(),
  },
  {
    name: 'producer',
    description: 'send messages to a queue or topic',
    load: async () => (await import('./commands/producer.js')).producerCommand(),
  },
  {
    name: 'consumer',
    description: 'receive (and acknowledge) messages from a queue or topic',
    load: async () => (await import('./commands/consumer.js')).consumerCommand(),
  },
  {
    name: 'browse',
    description: 'print the messages waiting in a queue without consuming them',
    load: async () => (await import('./commands/browse.js')).browseCommand(),
  },
  {
    name: 'queue',
    description: 'look at and manage the queues of a running broker',
    load: async () => (await import('./commands/queue.js')).queueCommand(),
  },
  {
    name: 'connection',
    description: 'list and close the client connections of a running broker',
    load: async () => (await import('./commands/connection.js')).connectionCommand(),
  },
  {
    name: 'subscription',
    description: "list a topic's subscriptions and drop durable ones on a running broker",
    load: async () => (await import('./commands/subscription.js')).subscriptionCommand(),
  },
  {
    name: 'jndi',
    description: 'the naming registry the configuration describes',
    load: async () => (await import('./commands/jndi.js')).jndiCommand(),
  },
  {
    name: 'perf',
    description: 'a producer and a consumer at full speed (or --rate): rates and latency every second',
    load: async () => (await import('./commands/perf.js')).perfCommand(),
  },
  {
    name: 'user',
    description: 'manage the users of hornetq-users.xml',
    load: async () => (await import('./commands/user.js')).userCommand(),
  },
  {
    name: 'config',
    description: 'the configuration files of a broker',
    load: async () => (await import('./commands/config.js')).configCommand(),
  },
  {
    name: 'data',
    description: "check a stopped broker's journals and large-message files for damage",
    load: async () => (await import('./commands/data.js')).dataCommand(),
  },
];

/**
 * The program for `argv`: the command it names loaded in full, every other one as its name and
 * description only (enough for the command list, and for "did you mean" after a misspelt name).
 */
export async function createProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('hornetq')
    .description("HornetQ's JMS broker and tools for Node.js")
    .version(packageVersion(), '-V, --version')
    .option('-v, --verbose', 'on failure, print every detail and the stack trace')
    .showSuggestionAfterError(true);
  const named = commandNamed(argv);
  for (const entry of COMMANDS) {
    const command = entry === named ? await entry.load() : new Command(entry.name);
    program.addCommand(command.description(entry.description));
  }
  oneLineErrors(program);
  return program;
}

/**
 * The command `argv` runs or asks help for (`hornetq -v producer ...`, `hornetq help producer`):
 * the first word after the program's own options, none of which takes a value.
 */
function commandNamed(argv: readonly string[]): CommandEntry | undefined {
  const words = argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((entry) => entry.name === name);
}

/** Commander puts its "(Did you mean ...?)" on a line of its own: keep each mistake to one line. */
function oneLineErrors(command: Command): void {
  command.configureOutput({
    outputError: (text, write) => write(`${text.trim().replace(/\s*\n\s*/g, ' ')}\n`),
  });
  for (const sub of command.commands) oneLineErrors(sub);
}

/**
 * Runs the command line `argv` (as process.argv: node, script, then the arguments). Exported for
 * the hornetq-js-server package's `hornetq` executable, which starts the command from here.
 */
export async function main(argv: string[]): Promise<void> {
  const program = await createProgram(argv);
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
