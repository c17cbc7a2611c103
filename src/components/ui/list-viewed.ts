/**
 * `view_item_list` once per list shown: a list (its id names what it lists: a schedule's kind and filters, a library
 * rail, category or search) is reported the first time it shows items, and again only when it becomes another list.
 */
import { useEffect, useRef } from 'react';
import { listViewed, type ListedItem } from '../../stores/analytics/port.js';

/** Reports the list `listId` once it shows items; undefined items (loading) or none report nothing. */
export function useListViewed(listId: string, listName: string, items: readonly ListedItem[] | undefined): void {
  const sent = useRef<string | undefined>(undefined);
  const shown = Boolean(items && items.length > 0);
  useEffect(() => {
    if (!shown || sent.current === listId) return;
    sent.current = listId;
    listViewed(listId, listName, items!);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per list id: the items of its first showing, not of its later pages
  }, [shown, listId]);
}
