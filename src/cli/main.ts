import { Command, CommanderError } from 'commander';
import { COMMAND_LOADERS } from './commands/index.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { isEngineError, errorMessage } from '../util/engine-error.js';
import { packageVersion } from '../util/build-identity.js';

/** Exit codes shared by every command: 0 ok/valid, 1 negative verdict, 2 usage or infrastructure error. */
export const EXIT_USAGE_OR_INFRA = 2;

/**
 * The `ssr` program with every command, or with only `only` when that names one: what `main`
 * runs, so one command's start-up loads that command's modules and no other's.
 */
export async function buildProgram(only?: string): Promise<Command> {
  const program = new Command('ssr')
    .description('Self-play SWE-RL: inject bugs into real repos, validate them, solve them, train one policy.')
    .version(packageVersion(), '-V, --version', "print ssr's version (package.json) and exit")
    .showHelpAfterError()
    // Names only in the list (flags are in `ssr <command> --help`), so every summary fits one line.
    .configureHelp({ subcommandTerm: (command) => command.name() })
    .exitOverride();
  const wanted = COMMAND_LOADERS.filter(([name]) => name === only);
  const loaders = wanted.length > 0 ? wanted : COMMAND_LOADERS;
  for (const register of await Promise.all(loaders.map(([, load]) => load()))) register(program);
  for (const command of program.commands) {
    const summary = COMMAND_SUMMARIES[command.name()];
    if (summary) command.summary(summary);
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    // The first word names the command (the program's own options are --help and --version): load only it.
    const program = await buildProgram(argv[0]);
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with code 0.
      return error.exitCode === 0 ? 0 : EXIT_USAGE_OR_INFRA;
    }
    const code = isEngineError(error) ? ` [${error.code}]` : '';
    process.stderr.write(`ssr: ${errorMessage(error)}${code}\n`);
    return EXIT_USAGE_OR_INFRA;
  }
}

const invokedDirectly = process.argv[1] !== undefined && /(?:main\.[jt]s|ssr(?:\.js)?)$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
