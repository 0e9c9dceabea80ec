import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SiteConfig } from '../site.ts';
import { certainlyChicagoDay, chicagoIsoDate, type IsoDate } from '../date.ts';
import { whenIdle } from './schedule.ts';

interface AppContextValue {
  site: SiteConfig;
  /** Today's date in Chicago (formatLongDate gives its words). */
  today: IsoDate;
  /** The `port` the radio player asks /api/stream for (from configuration, via the boot data). */
  streamPort: number;
  dark: boolean;
  toggleDark(): void;
}

const AppContext = createContext<AppContextValue | null>(null);

export function AppProvider({
  site,
  today,
  streamPort,
  children,
}: {
  site: SiteConfig;
  today: IsoDate;
  streamPort: number;
  children: ReactNode;
}) {
  // Light by default and not persisted (spec §4), so server and client start alike.
  const [dark, setDark] = useState(false);
  // First render uses the server's date (no mismatch); then the browser's own Chicago date,
  // which differs only when a page rendered before midnight is read after it. Intl only when the
  // clock is not certainly within the server's day, at an idle moment: a browser's first Intl
  // formatter is a long task, which must not hold up hydration or count against the page load.
  const [date, setDate] = useState(today);
  useEffect(() => {
    if (!certainlyChicagoDay(today, new Date())) whenIdle(() => setDate(chicagoIsoDate(new Date())));
  }, [today]);
  const value = useMemo(
    () => ({ site, today: date, streamPort, dark, toggleDark: () => setDark((d) => !d) }),
    [site, date, streamPort, dark],
  );
  return <AppContext value={value}>{children}</AppContext>;
}

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside AppProvider');
  return value;
}

export function useSite(): SiteConfig {
  return useApp().site;
}
