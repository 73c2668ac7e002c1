import { SignJWT } from 'jose';

export interface DevTokenInput {
  secret: string;
  issuer: string;
  audience: string;
  subject: string;
  email: string;
  name?: string | undefined;
  /** The `email_verified` claim; true by default, as a provider says of an address it checked. */
  emailVerified?: boolean;
  /** Lifetime in seconds. */
  expiresInSeconds?: number;
  now?: Date;
}

/** Signs an HS256 merchant token with the development secret, as an identity provider would. */
export async function mintDevToken(input: DevTokenInput): Promise<string> {
  const issuedAt = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return new SignJWT({
    email: input.email,
    email_verified: input.emailVerified ?? true,
    ...(input.name ? { name: input.name } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(input.subject)
    .setIssuer(input.issuer)
    .setAudience(input.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (input.expiresInSeconds ?? 12 * 3600))
    .sign(new TextEncoder().encode(input.secret));
}
