/**
 * Tabs (React Aria Components): arrow keys move between tabs, the panel
 * follows the selected tab. `tabs` gives each tab's id, label and panel.
 */
import type { Key, ReactNode } from "react";
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from "react-aria-components";

export interface TabSpec {
  id: string;
  label: ReactNode;
  panel: ReactNode;
}

export function Tabs({ label, tabs, selected, onSelect }: { label: string; tabs: readonly TabSpec[]; selected?: string; onSelect?: (id: string) => void }) {
  return (
    <AriaTabs className="kit-tabs" selectedKey={selected} onSelectionChange={onSelect ? (k: Key) => onSelect(String(k)) : undefined}>
      <TabList aria-label={label} className="kit-tablist">
        {tabs.map((t) => (
          <Tab key={t.id} id={t.id} className="kit-tab">
            {t.label}
          </Tab>
        ))}
      </TabList>
      {tabs.map((t) => (
        <TabPanel key={t.id} id={t.id} className="kit-tabpanel">
          {t.panel}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
