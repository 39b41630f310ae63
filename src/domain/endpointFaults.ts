/**
 * The Temporal failure types of a model endpoint's faults, which are the instance's `error` (never the
 * agent's failure): the key refused (a configuration error: the study starts no more instances of that
 * agent), the endpoint unavailable (429, 5xx, unreachable, after bounded retries), a call unanswered
 * at the agent's time limit.
 */
export const ENDPOINT_FAILURE_TYPES = { auth: 'ModelEndpointAuth', unavailable: 'ModelEndpointUnavailable', unresponsive: 'ModelEndpointUnresponsive' } as const;
export type EndpointFault = keyof typeof ENDPOINT_FAILURE_TYPES;
