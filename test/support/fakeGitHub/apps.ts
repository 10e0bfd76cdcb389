import { verify } from 'node:crypto';
import { HttpFailure } from './route.ts';
import type { Actor, Grant } from './state.ts';

/**
 * GitHub Apps of the fake: an app is known by its id and public key, an installation grants it
 * repositories, and POST /app/installations/{id}/access_tokens (authenticated by the app's RS256
 * JWT, checked against the public key) mints an installation token that acts as `<slug>[bot]`.
 */

export type FakeApp = { appId: number; slug: string; publicKey: string };
export type FakeInstallation = {
  installationId: number;
  appId: number;
  repositories: string[];
  permissions: Grant;
};
export type MintedToken = { token: string; actor: Actor; body: Record<string, unknown> };

const decodeSegment = (segment: string) =>
  JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

export class AppRegistry {
  readonly apps = new Map<number, FakeApp>();
  readonly installations = new Map<number, FakeInstallation>();
  private minted = 0;

  /** The app whose private key signed `jwt`; throws GitHub's 401 otherwise. Expiry is not checked. */
  authenticate(jwt: string): FakeApp {
    const [header, payload, signature] = jwt.split('.');
    let appId: number;
    try {
      if (decodeSegment(header).alg !== 'RS256') throw new Error('alg');
      appId = Number(decodeSegment(payload).iss);
    } catch {
      throw new HttpFailure(401, 'A JSON web token could not be decoded');
    }
    const app = this.apps.get(appId);
    const valid =
      app &&
      verify(
        'RSA-SHA256',
        Buffer.from(`${header}.${payload}`),
        app.publicKey,
        Buffer.from(signature ?? '', 'base64url'),
      );
    if (!app || !valid) throw new HttpFailure(401, `'Issuer' claim ('iss') must be an Integer`);
    return app;
  }

  mint(app: FakeApp, installationId: number, nowMs: number): MintedToken {
    const installation = this.installations.get(installationId);
    if (!installation || installation.appId !== app.appId) throw new HttpFailure(404, 'Not Found');
    const token = `ghs_fake${installationId}x${++this.minted}`;
    const actor: Actor = {
      login: `${app.slug}[bot]`,
      id: 40_000_000 + app.appId,
      kind: 'installation',
      grants: new Map(installation.repositories.map((repo) => [repo, installation.permissions])),
    };
    const expiresAt = new Date(nowMs + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const body = {
      token,
      expires_at: expiresAt,
      permissions: { ...installation.permissions, metadata: 'read' },
      repository_selection: 'selected',
    };
    return { token, actor, body };
  }
}
