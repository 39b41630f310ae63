export const QUEUES = { cpu: 'envgap-cpu', gpu: 'envgap-gpu' } as const;
export type QueueName = keyof typeof QUEUES;
