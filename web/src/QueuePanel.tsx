import type { ActionResult, EditResult, RemoveResult, ReorderResult, SteerResult } from '@parley/client';
import { useAction, type ThreadView } from '@parley/client/react';
import { useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useMessages } from './i18n.ts';

type QueueAnswer = EditResult | RemoveResult | ReorderResult | SteerResult;

/**
 * The pending messages in their saved order: reorder by drag and drop or by keyboard (Alt+Arrow
 * keys, or the move buttons), edit inline, remove, or send one into the running reply (steer).
 * A reorder refused because the queue changed elsewhere shows the current order and says so.
 */
export function QueuePanel({ thread }: { thread: ThreadView }) {
  const t = useMessages();
  const { state } = thread;
  // Every queue action's answer lands here: the last one's failure is the notice.
  const [act, acted] = useAction((action: () => Promise<ActionResult<QueueAnswer>>) => action());
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const items = state.queue?.items ?? [];
  if (items.length === 0) return null;
  const movable = items.filter((item) => !item.steeringExecutionId);
  const notice = acted.error && (acted.error.__typename === 'QueueChangedError' ? t.queueChanged : acted.error.message);

  const reorder = (queueId: string, targetQueueId: string) => {
    if (queueId !== targetQueueId) void act(() => thread.reorder(queueId, targetQueueId));
  };
  const move = (index: number, by: -1 | 1) => {
    const target = movable[index + by];
    if (target) reorder(movable[index]!.id, target.id);
  };
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    move(index, event.key === 'ArrowUp' ? -1 : 1);
  };
  const onDrop = (event: DragEvent, targetId: string) => {
    event.preventDefault();
    const queueId = event.dataTransfer.getData('text/plain');
    if (queueId) reorder(queueId, targetId);
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const { id, text } = editing;
    const result = await act(() => thread.edit(id, text));
    if (result.__typename === 'QueueItem') setEditing(null);
  };

  return (
    <section className="queue" aria-labelledby="queue-title">
      <h2 id="queue-title">{t.queue}</h2>
      <p className="hint" id="queue-help">
        {t.queueHelp}
      </p>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <ol>
        {items.map((item) => {
          const index = movable.indexOf(item);
          const steering = Boolean(item.steeringExecutionId);
          return (
            <li
              key={item.id}
              className="queue-item"
              data-queue-id={item.id}
              draggable={!steering}
              tabIndex={steering ? undefined : 0}
              aria-describedby="queue-help"
              onKeyDown={steering ? undefined : (event) => event.target === event.currentTarget && onKeyDown(event, index)}
              onDragStart={(event) => {
                event.dataTransfer.setData('text/plain', item.id);
                event.dataTransfer.effectAllowed = 'move';
              }}
              onDragOver={(event) => !steering && event.preventDefault()}
              onDrop={(event) => !steering && onDrop(event, item.id)}
            >
              {editing?.id === item.id ? (
                <form className="edit" onSubmit={save}>
                  <input aria-label={t.edit} value={editing.text} onChange={(event) => setEditing({ id: item.id, text: event.target.value })} autoFocus />
                  <button type="submit">{t.save}</button>
                  <button type="button" onClick={() => setEditing(null)}>
                    {t.cancel}
                  </button>
                </form>
              ) : (
                <>
                  <span className="queue-text">{item.text}</span>
                  {steering ? (
                    <em className="hint">{t.steering}</em>
                  ) : (
                    <span className="queue-actions">
                      <button type="button" aria-label={`${t.moveUp}: ${item.text}`} disabled={index === 0} onClick={() => move(index, -1)}>
                        ↑
                      </button>
                      <button type="button" aria-label={`${t.moveDown}: ${item.text}`} disabled={index === movable.length - 1} onClick={() => move(index, 1)}>
                        ↓
                      </button>
                      <button type="button" onClick={() => setEditing({ id: item.id, text: item.text })}>
                        {t.edit}
                      </button>
                      <button type="button" onClick={() => void act(() => thread.remove(item.id))}>
                        {t.remove}
                      </button>
                      {state.queue?.steerableExecutionId && (
                        <button type="button" onClick={() => void act(() => thread.steer(item.id, state.queue?.steerableExecutionId ?? undefined))}>
                          {t.steer}
                        </button>
                      )}
                    </span>
                  )}
                </>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
