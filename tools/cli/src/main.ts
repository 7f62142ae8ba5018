import 'reflect-metadata';
import { ConfigError } from '@bhis/config';
import { CliError } from './context';
import { buildProgram } from './program';

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) {
      process.stderr.write(`bhis: ${error.message}\n`);
      process.exitCode = error instanceof ConfigError ? 78 : 1;
      return;
    }
    throw error;
  }
}

void main();
