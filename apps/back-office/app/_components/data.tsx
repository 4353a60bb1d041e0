import type { ReactNode } from 'react';

/**
 * A table of rows the API listed; scrolls sideways inside its frame on a phone, the page never does.
 * The frame takes the keyboard's focus (a region named like the table), so a table without links can
 * be scrolled with the arrow keys too.
 */
export function DataTable({ columns, rows, caption, label }: { columns: string[]; rows: { key: string; cells: ReactNode[] }[]; caption?: string; label?: string }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label ?? caption ?? `Table: ${columns.join(', ')}`}>
      <table>
        {caption && <caption className="muted">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              {r.cells.map((cell, n) => (
                <td key={n}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Label–value pairs of one object (an order, a listing); a pair given as `false` or `null` is left out. */
export function Facts({ items }: { items: ([string, ReactNode] | false | null | undefined)[] }) {
  return (
    <dl className="facts">
      {items
        .filter((i): i is [string, ReactNode] => !!i)
        .map(([label, value]) => (
          <div key={label} className="fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** One labelled input of a search form (GET: the filters stay in the page's address). */
export function FilterField({ id, name, label, value, type = 'text', placeholder }: { id: string; name: string; label: string; value?: string; type?: 'text' | 'search' | 'date'; placeholder?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type={type} defaultValue={value ?? ''} placeholder={placeholder} autoComplete="off" />
    </div>
  );
}
