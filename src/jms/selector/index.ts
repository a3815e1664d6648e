export { MAX_SELECTOR_DEPTH, MAX_SELECTOR_LENGTH, parseSelector, selectorFilterFactory } from './selector';
export type { Selector } from './selector';
