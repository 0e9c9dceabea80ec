/**
 * What the app and its pages share, as one module, for the browser build only: the build
 * (scripts/bundle.ts, `oneSharedChunk`) resolves our code's imports of these packages and modules
 * here, so esbuild emits one shared chunk instead of seven (each page imports a different mix of
 * them, and each mix was its own chunk with its own import lists). React's names are listed
 * (it is CommonJS), and react-router-dom's, which keeps its tree-shaking: a name missing here
 * fails the build ("No matching export"), so add it. The modules below import the packages
 * directly, not through here.
 */
export {
  createContext,
  Fragment,
  Suspense,
  use,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
export { jsx, jsxs } from 'react/jsx-runtime';
export { BrowserRouter, Link, matchRoutes, Outlet, useLocation, useRoutes } from 'react-router-dom';
export * from '../shared/ui/app-context.tsx';
export * from '../shared/ui/PrefetchLink.tsx';
export * from '../shared/ui/radio/PlayerProvider.tsx';
