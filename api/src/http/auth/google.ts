import { Router } from 'express';
import type { AppDeps } from '../../app-deps';
import type { AppPassport } from './passport';

export const googleRoutes = (_deps: AppDeps, _passport: AppPassport): Router => Router();
