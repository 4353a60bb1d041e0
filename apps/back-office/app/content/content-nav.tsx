import { Tabs } from '../_components/tabs';
import { SECTIONS } from '../../lib/nav';

/** The content's sections (lib/nav.ts). */
export function ContentNav({ current }: { current: string }) {
  return <Tabs label="Content" sections={SECTIONS.Content} current={current} />;
}
