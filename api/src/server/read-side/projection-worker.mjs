// The projections' thread's entry: plain JavaScript, so that it loads without a TypeScript loader,
// then tsx's, which a Worker does not inherit from `node --import tsx` on Node 20.
import { register } from 'tsx/esm/api';

register();
await import('./projection-worker.ts');
