/** The workflow id of a finished study's phantom confirmation (`envgap study confirm-phantoms`), and of one instance's within it. */
export const confirmStudyId = (study: string) => `${study}/confirm-phantoms`;
export const confirmInstanceId = (instanceId: string) => `${instanceId}/confirm-phantoms`;
