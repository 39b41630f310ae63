/** Where the model relay listens inside the sandbox when the endpoint is not on the worker host. */
export const RELAY_PORT = 18080;

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface RelayPlan {
  /** The endpoint the relay forwards to (the study's base_url, or the vendor's). */
  upstream: string;
  /** The port on the sandbox's own loopback the agent's SDK connects to. */
  port: number;
  /** The base URL the agent is given: the same path, on the sandbox's loopback. */
  inside: string;
}

/**
 * How an agent reaches its model endpoint from its sandbox: always through envgap's relay, on the
 * sandbox's own loopback. An endpoint on the worker host (127.0.0.1, localhost) keeps its port, so the
 * base URL the agent sees is the study's own; any other is served at RELAY_PORT. Pure.
 */
export function relayPlan(baseUrl: string): RelayPlan {
  const u = new URL(baseUrl);
  const local = LOCAL_HOSTS.has(u.hostname);
  const port = local ? Number(u.port || (u.protocol === 'https:' ? 443 : 80)) : RELAY_PORT;
  const path = u.pathname.replace(/\/+$/, '');
  return { upstream: baseUrl, port, inside: `http://127.0.0.1:${port}${path}${u.search}` };
}
