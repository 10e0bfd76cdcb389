import type { DragEvent, ReactNode } from 'react';
import type { Column } from './usePagedColumns.ts';

/**
 * A board column: its heading with how many cards it holds (`total`, the project's count for the
 * status; without it, how many it shows, "20+" while the API has more), the cards, and a "Show
 * more" button that loads the next page. `onDropAtEnd` makes the space under the last card a drop target.
 */
export function BoardColumn<T extends { id: string }>({
  id,
  title,
  column,
  total,
  onMore,
  children,
  onDropAtEnd,
}: {
  id: string;
  title: string;
  column: Column<T> | undefined;
  total?: number;
  onMore(): void;
  children: (item: T, index: number) => ReactNode;
  onDropAtEnd?: (event: DragEvent<HTMLElement>) => void;
}) {
  const items = column?.items ?? [];
  const count =
    total !== undefined
      ? String(total)
      : column
        ? `${items.length}${column.nextCursor ? '+' : ''}`
        : '…';
  const drop = onDropAtEnd && {
    onDragOver: (event: DragEvent<HTMLElement>) => event.preventDefault(),
    onDrop: (event: DragEvent<HTMLElement>) => {
      event.preventDefault();
      onDropAtEnd(event);
    },
  };
  return (
    <section className="board-column" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        {title} <span className="board-count">{count}</span>
      </h2>
      {column && items.length === 0 && <p className="board-empty">None</p>}
      <ol className="board-cards">
        {items.map((item, index) => (
          <li key={item.id}>{children(item, index)}</li>
        ))}
      </ol>
      {column?.nextCursor && (
        <button
          type="button"
          onClick={onMore}
          disabled={column.loading}
          aria-label={`Show more: ${title}`}
        >
          {column.loading ? 'Loading…' : 'Show more'}
        </button>
      )}
      {drop && <div className="board-drop-end" {...drop} aria-hidden="true" />}
    </section>
  );
}
