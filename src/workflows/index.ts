export { instanceWorkflow } from './instance';
export { studyWorkflow, progressQuery } from './study';
export { readinessInstanceWorkflow, readinessStudyWorkflow } from './readiness';
export { readmeInstanceWorkflow, readmeStudyWorkflow } from './readme';
export { confirmInstanceWorkflow, confirmStudyWorkflow } from './confirmStudy';
export { reresolveStudyWorkflow } from './reresolveStudy';
