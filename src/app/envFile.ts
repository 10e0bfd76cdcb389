import { join } from 'node:path';

/**
 * The server and the admin CLI read the same configuration: the environment, and a `.env` file
 * in the working directory for what the environment does not set (Node's own loader keeps
 * variables that are already set, so the real environment wins). Returns the file it read.
 */
export function loadEnvFileOfWorkingDirectory(): string | null {
  const file = join(process.cwd(), '.env');
  try {
    process.loadEnvFile(file);
    return file;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
  }
}
