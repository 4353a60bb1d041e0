import { Tabs } from '../_components/tabs';
import { SECTIONS } from '../../lib/nav';

/** The settings' sections (lib/nav.ts). */
export function SettingsNav({ current }: { current: string }) {
  return <Tabs label="Settings" sections={SECTIONS.Settings} current={current} />;
}
