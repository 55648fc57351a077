import './root.ts';
import './scalars.ts';
import './errors.ts';
import './failure.ts';
import './viewer.ts';
import './api-token.ts';
import './project.ts';
import './agent.ts';
import './thread.ts';
import './message.ts';
import './execution.ts';
import './suspension.ts';
import './conversation.ts';
import './queue.ts';
import './run-events.ts';
import './tool-server.ts';
import { builder } from './builder.ts';

export const schema = builder.toSchema({ sortSchema: true });
