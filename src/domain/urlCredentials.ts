/**
 * A package index address without credentials: `https://user:token@host/simple` -> `https://host/simple`.
 * Query parameters that commonly carry a secret (token, password, key, auth…) are dropped too. A value
 * that is no URL (a local folder) is returned as it is, minus any `user:pass@` before a host.
 */
export function withoutCredentials(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return address.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1');
  }
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) {
    if (/token|passw|secret|key|auth|sig|credential/i.test(key)) url.searchParams.delete(key);
  }
  return url.toString();
}
