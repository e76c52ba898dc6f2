import { isIP } from 'node:net';

/**
 * Clients served from other origins than the API (`CORS_ORIGINS`): which origins are another
 * site, and what a browser needs to keep a session with them.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether browsers take the origin's host for a secure context even over http. */
export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname);

/**
 * Whether two origins are different sites, as browsers judge `SameSite`. No public-suffix list, so
 * only equal hosts or a host and its subdomain are one site; siblings (`api.example.com`,
 * `www.example.com`) count as different, which costs them only SameSite=Lax.
 */
export const isCrossSite = (a: string, b: string): boolean => {
  const x = new URL(a);
  const y = new URL(b);
  if (x.protocol !== y.protocol) return true;
  const [p, q] = [x.hostname, y.hostname];
  if (p === q) return false;
  const isName = (host: string) => !isIP(host.replace(/^\[|\]$/g, '')) && host !== 'localhost';
  if (!isName(p) || !isName(q)) return true;
  return !(p.endsWith(`.${q}`) || q.endsWith(`.${p}`));
};

/** Whether any allowed origin is another site than the public origin (cookies must be SameSite=None). */
export const anyCrossSite = (publicOrigin: string, allowed: readonly string[]): boolean =>
  allowed.some((origin) => isCrossSite(publicOrigin, origin));

/**
 * An http(s) origin as browsers send it in `Origin` (lower-case host, no default port), or an
 * error message for a value that is not one (a path, a query, credentials, another scheme).
 */
export const parseOrigin = (value: string): { origin: string } | { error: string } => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `"${value}" is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `"${value}" is not an http(s) origin` };
  if (url.username || url.password) return { error: `"${value}" holds credentials` };
  if (url.pathname !== '/' || /[?#]/.test(value))
    return { error: `"${value}" has a path; an origin is scheme://host[:port] only` };
  return { origin: url.origin };
};
