// The todo list the model keeps with `todo_write` (and a plan file's instructions, one todo each). It is sent
// again after compaction and rebuilt on resume from the last `todo` event, so it is never lost.

export type TodoStatus = 'pending' | 'in_progress' | 'done';

export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
}
