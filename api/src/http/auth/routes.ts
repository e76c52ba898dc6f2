import { Router } from 'express';
import type { AppDeps } from '../../app-deps';
import type { AppPassport } from './passport';
import { googleRoutes } from './google';

export const authRoutes = (deps: AppDeps, passport: AppPassport): Router => {
  const router = Router();
  router.use(googleRoutes(deps, passport));
  return router;
};
