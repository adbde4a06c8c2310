import { createContext, useContext, type ReactNode } from "react";

/**
 * Whether the spec's cosmetic figures show (DEMO_FIGURES=on, the demo): the
 * root loader provides it, components read it with useDemoFigures(). Without
 * a provider (a component rendered alone) it is off, the live store's default:
 * only figures that are facts.
 */
const DemoFiguresContext = createContext(false);

export function DemoFiguresProvider({ on, children }: { on: boolean; children: ReactNode }) {
  return <DemoFiguresContext.Provider value={on}>{children}</DemoFiguresContext.Provider>;
}

export function useDemoFigures(): boolean {
  return useContext(DemoFiguresContext);
}
