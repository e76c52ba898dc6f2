import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react';

export const TABS = ['Overview', 'Recent Activity', 'Statistics'] as const;
export type Tab = (typeof TABS)[number];
const tabKey = (tab: Tab) => tab.toLowerCase().replace(' ', '-');

/** The tab the arrow keys, Home and End move to from `index`, or null for any other key. */
const nextTabIndex = (key: string, index: number): number | null => {
  const last = TABS.length - 1;
  if (key === 'ArrowRight') return index === last ? 0 : index + 1;
  if (key === 'ArrowLeft') return index === 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
};

/** The profile's tab list (arrow keys, Home and End move along it) and the chosen tab's panel. */
export const ProfileTabs = ({ children }: { children: (tab: Tab) => ReactNode }) => {
  const [tab, setTab] = useState<Tab>('Overview');
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = nextTabIndex(event.key, TABS.indexOf(tab));
    if (next === null) return;
    event.preventDefault();
    setTab(TABS[next] ?? 'Overview');
    tabRefs.current[next]?.focus();
  };

  return (
    <>
      <div className="tabs" role="tablist" aria-label="Profile sections" onKeyDown={onTabKey}>
        {TABS.map((name, index) => (
          <button
            key={name}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${tabKey(name)}`}
            aria-selected={tab === name}
            aria-controls={`panel-${tabKey(name)}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${tabKey(tab)}`}
        aria-labelledby={`tab-${tabKey(tab)}`}
        tabIndex={0}
        className="tab-panel"
      >
        {children(tab)}
      </div>
    </>
  );
};
