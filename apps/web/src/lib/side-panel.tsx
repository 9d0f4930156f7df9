import { useLocation } from '@tanstack/react-router';
import { pathHasPrefix } from '@vigil/contracts';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

interface OpenPanel {
  id: string;
  /** The panel stays open while the path lies below this one. */
  pathPrefix: string;
}

interface SidePanelState {
  openId: string | null;
  open: (id: string, pathPrefix: string) => void;
  close: () => void;
}

const SidePanelContext = createContext<SidePanelState>({ openId: null, open: () => {}, close: () => {} });

/**
 * The right-hand side panel (spec 1 section 2.9): one open at a time; a route change closes it unless
 * the new path lies below the panel's path prefix.
 */
export function SidePanelProvider({ children }: { children: ReactNode }) {
  const [panel, setPanel] = useState<OpenPanel | null>(null);
  const pathname = useLocation({ select: (location) => location.pathname });
  const open = useCallback((id: string, pathPrefix: string) => setPanel({ id, pathPrefix }), []);
  const close = useCallback(() => setPanel(null), []);

  // Adjusted while rendering, so the page of the new route never shows with a stale panel.
  const [lastPathname, setLastPathname] = useState(pathname);
  if (pathname !== lastPathname) {
    setLastPathname(pathname);
    if (panel && !pathHasPrefix(pathname, panel.pathPrefix)) setPanel(null);
  }

  const value = useMemo(() => ({ openId: panel?.id ?? null, open, close }), [panel, open, close]);
  return <SidePanelContext.Provider value={value}>{children}</SidePanelContext.Provider>;
}

/** Whether the side panel `id` is open, and functions to open it (closing any other) and to close it. */
export function useSidePanel(id: string) {
  const { openId, open, close } = useContext(SidePanelContext);
  const pathname = useLocation({ select: (location) => location.pathname });
  return {
    opened: openId === id,
    open: useCallback(() => open(id, pathname), [open, id, pathname]),
    close,
  };
}
