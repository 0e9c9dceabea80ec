/**
 * React, its JSX runtime and react-router-dom as one module, for the browser build only: the build
 * (scripts/bundle.ts, `oneVendorChunk`) resolves the app's imports of those packages here, so
 * esbuild emits them as one shared chunk instead of several (each page imports a different mix of
 * them). The names are listed, which keeps react-router's tree-shaking; a name missing here fails
 * the build ("No matching export"), so add it.
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
