import { Command } from 'commander';
import { dbCommand } from './commands/db';
import { demoCommand } from './commands/demo';
import { keysCommand } from './commands/keys';

export function buildProgram(): Command {
  const program = new Command('bhis')
    .description('Operator CLI of the Building Health Intelligence Service')
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true });
  program.addCommand(dbCommand());
  program.addCommand(keysCommand());
  program.addCommand(demoCommand());
  return program;
}
