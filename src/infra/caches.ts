/**
 * Download caches shared by all containers (pip, npm, Maven); what gets installed stays per container,
 * so D2 stays honest.
 */
export const CACHE_BINDS = ['envgap-pip-cache:/root/.cache/pip', 'envgap-npm-cache:/root/.npm', 'envgap-maven-cache:/root/.m2/repository'];
