/**
 * What the app and its pages share, as one module, for the browser build only: the build
 * (scripts/bundle.ts, `oneSharedChunk`) resolves our code's imports of these packages and modules
 * here, so esbuild emits one shared chunk instead of seven (each page imports a different mix of
 * them, and each mix was its own chunk with its own import lists). React's names are listed
 * (it is CommonJS): a name missing here fails the build ("No matching export"), so add it. The
 * modules below import React directly, not through here. No react-router: only the router chunk
 * has it (src/client/router.tsx, decision 043).
 */
export {
  createContext,
  Fragment,
  startTransition,
  Suspense,
  use,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
export { jsx, jsxs } from 'react/jsx-runtime';
export { flushSync } from 'react-dom';
export * from '../shared/pages.ts';
export * from '../shared/ui/app-context.tsx';
export * from '../shared/ui/navigation.tsx';
export * from '../shared/ui/PrefetchLink.tsx';
export * from '../shared/ui/radio/PlayerProvider.tsx';
