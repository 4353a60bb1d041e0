import { Tabs } from '../_components/tabs';

const SECTIONS = [
  { href: '/content', label: 'Pages' },
  { href: '/content/media', label: 'Media library' },
];

/** The content's sections. */
export function ContentNav({ current }: { current: string }) {
  return <Tabs label="Content" sections={SECTIONS} current={current} />;
}
