// The peer's counterpart of Parley's demo `/tokens <n> over <s>` (bench row C2): one model node that
// streams exactly n chunks `t1 `, `t2 `, … as `custom` events, chunk i due at the node's start plus
// i·s/n (an absolute schedule: a busy server shows as lateness, not as a slower model), and ends one
// interval after the last chunk, as the demo model does. The reply is kept in the graph's state.
// Its time: performance.timeOrigin + performance.now(), as bench/lib/stats.ts nowMs().
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';

const State = Annotation.Root({
  n: Annotation(),
  seconds: Annotation(),
  text: Annotation(),
});

const until = (at) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

async function model(state, config) {
  const n = Number(state.n ?? 0);
  const intervalMs = n > 0 && state.seconds ? (Number(state.seconds) * 1000) / n : 0;
  const startedAt = Date.now();
  let text = '';
  for (let i = 0; i < n; i++) {
    if (i > 0 && intervalMs > 0) await until(startedAt + i * intervalMs);
    const chunk = `t${i + 1} `;
    text += chunk;
    // When the chunk left the node (the same clock as the bench's: one machine), for the row's diagnostics.
    config.writer?.({ i, chunk, at: performance.timeOrigin + performance.now() });
  }
  if (n > 0 && intervalMs > 0) await until(startedAt + n * intervalMs);
  return { text };
}

export const graph = new StateGraph(State).addNode('model', model).addEdge(START, 'model').addEdge('model', END).compile();
