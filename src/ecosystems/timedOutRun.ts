import { environmentFailure, serviceOfPort, type EnvironmentFailure } from './environmentFailure';
import { parseRefusedConnections } from './refusedConnections';

/** Fewer refusals than this are a program that tried a service once and went on (a cache it can do without). */
export const MIN_REFUSALS = 2;

/**
 * Why a run stopped at its time limit waited on what the machine cannot give, or null: then it is the
 * program's own Timeout. First the environment rules on what it printed (a client retrying and
 * printing `connect ECONNREFUSED 127.0.0.1:6379` each time); where it printed nothing they know, the
 * connections its trace shows refused again and again on a service's usual port (a MongoDB driver
 * waiting out its server selection in silence): rule `refused-connection`, naming the service and
 * the address.
 */
export function timedOutRunEnvironment(output: string, runTrace: string | null): EnvironmentFailure | null {
  const printed = environmentFailure(output);
  if (printed) return printed;
  for (const refused of parseRefusedConnections(runTrace ?? '')) {
    const service = serviceOfPort(refused.port);
    if (service !== undefined && refused.count >= MIN_REFUSALS) return { rule: 'refused-connection', host: hostPort(refused.address, refused.port), service };
  }
  return null;
}

function hostPort(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}
