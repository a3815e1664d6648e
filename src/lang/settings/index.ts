export * from './setting';
export * from './setting-limits';
export * from './setting-problem';
