/**
 * Auth tokens: short-lived HS256 JWTs (iss = the site, sub = the user id, `ver` = the user's token
 * version, `sid` = the login they belong to). A token is accepted only while the user exists, the
 * version matches (bumped by "log out everywhere" and password resets) and its login is not revoked.
 */
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export type AccessClaims = { userId: number; version: number; sid: string };

export async function signAccessToken(
  key: Uint8Array,
  issuer: string,
  claims: AccessClaims,
  ttlSeconds: number,
  now = Math.floor(Date.now() / 1000),
) {
  const exp = now + ttlSeconds;
  const token = await new SignJWT({
    ver: claims.version,
    sid: claims.sid,
    typ: 'access',
    data: { user: { id: String(claims.userId) } },
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject(String(claims.userId))
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(exp)
    .sign(key);
  return { token, exp };
}

/** The claims, or the Headless Login / JWT plugin's error text. */
export async function verifyAccessToken(
  key: Uint8Array,
  issuer: string,
  token: string,
): Promise<AccessClaims | { error: string }> {
  if (token.split('.').length !== 3) return { error: 'Wrong number of segments' };
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer, clockTolerance: 5 });
    const userId = Number(payload.sub);
    if (payload.typ !== 'access' || !Number.isSafeInteger(userId) || userId <= 0)
      return { error: 'User ID not found in the token' };
    if (typeof payload.ver !== 'number' || typeof payload.sid !== 'string')
      return { error: 'The User Secret does not match or has been revoked for this user' };
    return { userId, version: payload.ver, sid: payload.sid };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) return { error: 'Expired token' };
    if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'iss')
      return { error: 'The iss do not match with this server' };
    if (err instanceof joseErrors.JWSSignatureVerificationFailed) return { error: 'Signature verification failed' };
    return { error: 'Invalid token' };
  }
}
