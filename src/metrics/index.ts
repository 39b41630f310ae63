export { computeMetrics, type MetricsOptions } from './computeMetrics';
export { formatMetricsTable } from './formatMetricsTable';
export { metricsToCsv } from './metricsToCsv';
export type * from './report';
