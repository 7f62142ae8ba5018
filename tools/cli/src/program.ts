import { Command } from 'commander';
import { dbCommand } from './commands/db';
import { demoCommand } from './commands/demo';
import { demoSteps } from './commands/demo-steps';
import { ingestCommand } from './commands/ingest';
import { rejectedCommand } from './commands/rejected';
import { keysCommand } from './commands/keys';
import { scoreCommand } from './commands/score';
import { synthCommand } from './commands/synth';
import { validateCommand } from './commands/validate';

export function buildProgram(): Command {
  const program = new Command('bhis')
    .description('Operator CLI of the Building Health Intelligence Service')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true });
  program.addCommand(dbCommand());
  program.addCommand(keysCommand());
  program.addCommand(demoCommand(demoSteps));
  program.addCommand(ingestCommand());
  program.addCommand(rejectedCommand());
  program.addCommand(scoreCommand());
  program.addCommand(synthCommand());
  program.addCommand(validateCommand());
  return program;
}
