import { createJSONStorage } from 'zustand/middleware'
import { browserStorage } from './browserStorage'

/** Where zustand stores persist: browserStorage, so a store survives denied localStorage. */
export const persistedStorage = createJSONStorage(() => browserStorage)
