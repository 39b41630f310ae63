export * from './pep503';
export * from './requirements';
export * from '../strace';
export * from './record';
export * from './piplist';
export * from './entry';
export * from './classify';
