import { Command } from 'commander';
import { dbCommand } from './commands/db';
import { demoCommand } from './commands/demo';
import { ingestCommand } from './commands/ingest';
import { keysCommand } from './commands/keys';
import { scoreCommand } from './commands/score';
import { synthCommand } from './commands/synth';

export function buildProgram(): Command {
  const program = new Command('bhis')
    .description('Operator CLI of the Building Health Intelligence Service')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true });
  program.addCommand(dbCommand());
  program.addCommand(keysCommand());
  program.addCommand(demoCommand());
  program.addCommand(ingestCommand());
  program.addCommand(scoreCommand());
  program.addCommand(synthCommand());
  return program;
}
