import { createContext, useContext } from 'react';
import type { StudioInfo } from '../../../src/studio/api-types';

/** The studio's `GET /api/info`, once loaded (undefined before). */
export const InfoContext = createContext<StudioInfo | undefined>(undefined);

/** The studio's info (agents, models, features), undefined while loading. */
export function useInfo(): StudioInfo | undefined {
  return useContext(InfoContext);
}
