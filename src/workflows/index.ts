export { instanceWorkflow } from './instance';
export { studyWorkflow, progressQuery } from './study';
