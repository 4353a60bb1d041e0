import type { BlockProps } from './types';

/** The shop's promises, side by side. */
export function PromisesBlock({ block: b }: BlockProps) {
  return (
    <section className="block block-promises" aria-label={b.items!.map((i) => i.title).join(', ')} data-block="promises">
      <ul>
        {b.items!.map((item) => (
          <li key={item.title}>
            <h3>{item.title}</h3>
            {item.text && <p>{item.text}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}
