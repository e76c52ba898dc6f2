import { Router } from 'express';
import type { AppDeps } from '../../app-deps';
import type { AppPassport } from '../auth/passport';

export const userRoutes = (_deps: AppDeps, _passport: AppPassport): Router => Router();
