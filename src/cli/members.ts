import { parseArgs } from 'node:util';
import { MEMBER_ROLES, type MemberRole } from '../domain/accounts/members.ts';
import type { Platform } from '../platform.ts';

const print = (line: string) => process.stdout.write(`${line}\n`);

function memberArgs(args: string[], command: string) {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
    },
    strict: true,
  });
  if (!values.account || !values.email)
    throw new Error(`${command} needs --account <name> --email <address>`);
  if (values.role !== undefined && !(MEMBER_ROLES as readonly string[]).includes(values.role))
    throw new Error(`Unknown role ${values.role}; roles: ${MEMBER_ROLES.join(', ')}`);
  return {
    account: values.account,
    email: values.email.trim(),
    role: (values.role ?? 'editor') as MemberRole,
    name: values.name,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Loaded when a members command runs, so the other commands start no slower for it.
import { cliActor } from './actor.ts';
const adminLinks = () => import('../features/application/adminLinks.ts');

/** `inkstream members invite|reset-password`: one-time links printed for an admin to hand over. */
export const memberCommands: Record<string, (platform: Platform, args: string[]) => Promise<void>> =
  {
    async 'members invite'(platform, args) {
      const input = memberArgs(args, 'members invite');
      if (!EMAIL.test(input.email) || input.email.length > 254)
        throw new Error('--email must be an email address');
      const { member, link } = await (await adminLinks()).inviteByName(platform, {
        ...input,
        actor: cliActor(),
      });
      print(
        `Invited ${input.email} to "${input.account}" as ${member.role} (${member.id}). Send them this link; it works once, until ${link.expiresAt}:\n\n  ${link.url}\n`,
      );
    },
    async 'members reset-password'(platform, args) {
      const input = memberArgs(args, 'members reset-password');
      const link = await (await adminLinks()).resetLinkByName(platform, input);
      print(
        `A password reset link for ${input.email}; it works once, until ${link.expiresAt}:\n\n  ${link.url}\n`,
      );
    },
  };
