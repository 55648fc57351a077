import './root.ts';
import './scalars.ts';
import './errors.ts';
import './viewer.ts';
import './project.ts';
import './agent.ts';
import './thread.ts';
import './conversation.ts';
import './run-events.ts';
import './queue.ts';
import './execution.ts';
import { builder } from './builder.ts';

export const schema = builder.toSchema({ sortSchema: true });
