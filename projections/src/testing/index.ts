/**
 * Test support for other workspaces' tests (`@auction/projections/testing`): not part of the
 * package's face for production code.
 */
export { ReadStoreUserDirectory } from '../users/user-directory';
export { EventLog } from './event-log';
export { projectionHarness } from './harness';
