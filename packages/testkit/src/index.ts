export { createModel } from './reference-model';
export type { ModelOutcome, ModelView } from './reference-model';
export { timelineArbitrary } from './arbitraries';
export { deciderSpec } from './given-when-then';
