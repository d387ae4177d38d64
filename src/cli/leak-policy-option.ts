import { Option, type Command } from 'commander';
import { LEAK_POLICIES } from '../agent/leak-flag.js';

/** Adds `--leak-policy flag|fail`: what a Solver attempt whose trajectory reached for a leak earns. */
export function addLeakPolicyOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--leak-policy <policy>',
      'Solver attempts that reach for the repo history, the artifact files, paths outside the repo, the network or package downloads: flag = record it (episode record, metrics, report); fail = the attempt also earns -1, its reason naming the leak',
    )
      .choices(LEAK_POLICIES)
      .default('flag'),
  );
}
