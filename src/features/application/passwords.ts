import { AppError } from '../../core/errors.ts';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

// argon2 (a native module) and the common-password list (~14 MB resident) are loaded by the first
// password set or checked, not by a start that serves only API keys (docs/memory.md).
const argon2 = () => import('@node-rs/argon2');

// The ~49,000 most common passwords from zxcvbn-ts's maintained list, compared lower-cased.
let common: Promise<Set<string>> | null = null;
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((word) => word.toLowerCase())),
  ));

/** The length and common-password rules; a refusal names the field so a form can show it there. */
export async function checkPasswordPolicy(password: string): Promise<void> {
  const problem =
    password.length < MIN_PASSWORD_LENGTH
      ? `Use at least ${MIN_PASSWORD_LENGTH} characters.`
      : password.length > MAX_PASSWORD_LENGTH
        ? `Use at most ${MAX_PASSWORD_LENGTH} characters.`
        : (await commonPasswords()).has(password.toLowerCase())
          ? 'This is one of the most common passwords; choose one that is not.'
          : null;
  if (problem)
    throw new AppError('validation_failed', `Invalid request body: password: ${problem}`, {
      details: [{ path: 'body.password', message: problem }],
    });
}

/** argon2id with the library's defaults (19 MiB, 2 passes: OWASP's recommendation). */
export const hashPassword = async (password: string): Promise<string> =>
  (await argon2()).hash(password);

// An unknown email costs the same verification as a known one, so timing does not tell them apart.
let decoy: Promise<string> | null = null;

export async function passwordMatches(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  const { verify } = await argon2();
  if (!passwordHash) {
    await verify(await (decoy ??= hashPassword('not a password of anyone')), password).catch(
      () => false,
    );
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
