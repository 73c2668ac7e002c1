import { AppError, type Clock, systemClock } from '@commerce/core';
import { createRemoteJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { z } from 'zod';

/** The claims the service uses from an identity provider's token (docs/platform.md "Merchant identity"). */
export interface MerchantClaims {
  subject: string;
  email: string;
  name: string | null;
  /**
   * True only when the provider says `email_verified: true`: some providers
   * never send the claim and let users edit the address, so an absent claim is not verified.
   */
  emailVerified: boolean;
}

export interface MerchantJwtSettings {
  secret?: string | undefined;
  jwksUrl?: string | undefined;
  issuer: string;
  audience: string;
}

export interface MerchantTokenVerifier {
  verify(token: string): Promise<MerchantClaims>;
}

const claimsSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.email().max(320),
  name: z.string().max(200).optional(),
  email_verified: z.boolean().optional(),
});

const unauthenticated = (message: string) => new AppError('UNAUTHENTICATED', message);

/**
 * Verifies signature, expiry, issuer and audience with jose: RS256/ES256 keys
 * from a JWKS URL in production, or the HS256 development secret.
 */
export function createMerchantTokenVerifier(
  settings: MerchantJwtSettings,
  clock: Clock = systemClock,
): MerchantTokenVerifier {
  const { key, algorithms } = resolveKey(settings);
  return {
    async verify(token) {
      let payload: unknown;
      try {
        ({ payload } = await jwtVerify(token, key as JWTVerifyGetKey, {
          issuer: settings.issuer,
          audience: settings.audience,
          algorithms,
          currentDate: clock.now(),
          requiredClaims: ['exp'],
        }));
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw unauthenticated('The token has expired');
        if (error instanceof errors.JOSEError) throw unauthenticated('The token is not valid');
        throw error;
      }
      const claims = claimsSchema.safeParse(payload);
      if (!claims.success) throw unauthenticated('The token must carry sub and email claims');
      return {
        subject: claims.data.sub,
        email: claims.data.email.toLowerCase(),
        name: claims.data.name ?? null,
        emailVerified: claims.data.email_verified === true,
      };
    },
  };
}

function resolveKey(settings: MerchantJwtSettings): {
  key: JWTVerifyGetKey | Uint8Array;
  algorithms: string[];
} {
  if (settings.jwksUrl) {
    return { key: createRemoteJWKSet(new URL(settings.jwksUrl)), algorithms: ['RS256', 'ES256'] };
  }
  if (!settings.secret)
    throw new Error('merchant JWT verification needs MERCHANT_JWKS_URL or MERCHANT_JWT_SECRET');
  return { key: new TextEncoder().encode(settings.secret), algorithms: ['HS256'] };
}

/** Reads `Authorization: Bearer <token>`; anything else is no credential. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization);
  return match?.[1];
}
