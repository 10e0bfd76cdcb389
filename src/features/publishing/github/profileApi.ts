import { z } from 'zod';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { route } from '../../../http/route.ts';
import { commandContext } from '../../../http/resources.ts';
import { idOf } from '../../../http/schemas.ts';
import { ownedProject } from '../../projects/owned.ts';
import { currentConnection, GitHubResponse, notConnected, present } from './api.ts';
import { ChangeGitHubBody } from './profileInput.ts';

/**
 * Correcting a GitHub connection without giving its credential again: its folders, who may
 * steer by comment, and the content profile's overrides (PATCH), and turning a legacy
 * connection's learned profile on (accept). Each is one command on the project's integrations
 * stream, with the caller as its actor; a viewer is refused before (http/auth.ts).
 */
export const githubProfileRoutes = [
  route({
    method: 'patch',
    path: '/projects/:id/integrations/github',
    tag: 'Integrations',
    summary:
      "Change the connection's folders, comment permission and content profile overrides, without the credential",
    params: z.object({ id: idOf('prj') }),
    body: ChangeGitHubBody,
    responses: { 200: GitHubResponse },
    errors: [404],
    async handle(input) {
      const { body, platform } = input;
      const project = await ownedProject(input, input.params.id);
      if (!(await currentConnection(platform, project.id))) throw notConnected(project.id);
      const { overrides, ...settings } = body;
      const result = await platform.commands.execute(
        integrationsStream,
        project.id,
        {
          type: 'ChangeGitHubSettings',
          settings,
          overrides: overrides ?? null,
          at: platform.clock.now(),
        },
        commandContext(input),
      );
      const connection = result.state.github;
      if (!connection) throw notConnected(project.id);
      return { status: 200, body: { github: await present(input, connection) } };
    },
  }),
  route({
    method: 'post',
    path: '/projects/:id/integrations/github/profile/accept',
    tag: 'Integrations',
    summary:
      "Publish in the shape learned from the repository: turns a legacy connection's learned profile on (409 while nothing is learned)",
    params: z.object({ id: idOf('prj') }),
    responses: { 200: GitHubResponse },
    errors: [404, 409],
    async handle(input) {
      const { platform } = input;
      const project = await ownedProject(input, input.params.id);
      if (!(await currentConnection(platform, project.id))) throw notConnected(project.id);
      const result = await platform.commands.execute(
        integrationsStream,
        project.id,
        { type: 'AcceptContentProfile', at: platform.clock.now() },
        commandContext(input),
      );
      const connection = result.state.github;
      if (!connection) throw notConnected(project.id);
      return { status: 200, body: { github: await present(input, connection) } };
    },
  }),
];
