import type { ModelMessage } from 'ai';
import type { Agent } from '../generated/prisma/client.ts';
import type { Locale } from '../i18n/catalog.ts';
import { rootRunRecording } from '../recording/root-run-recording.ts';
import type { RunEnding } from '../recording/run-ending.ts';
import type { RunRecording, Settled } from '../recording/run-recording.ts';
import { runAgent, type RunOutcome } from '../runtime/agent-runtime.ts';
import { TokenMeter } from '../runtime/token-meter.ts';
import type { DelegationResult } from '../runtime/tools.ts';
import { outsideRequestScope } from '../observability/request-id.ts';
import type { AdmittedRun } from './admission.ts';
import { answeredQuestion, approvedCall } from './checkpoint.ts';
import { clientTurnOf } from './client-turn.ts';
import { startChildRun } from './delegation.ts';
import { endingAfterOutage, endingOf, type RunStop } from './ending.ts';
import { loadCompactedHistory } from './history.ts';
import type { RunLauncherDeps } from './run-launcher-deps.ts';
import type { RunOwner } from './run-slots.ts';
import { TokenBudgetSpent, type RunningExecution } from './running-executions.ts';
import { runtimeInput, type RunSetup } from './runtime-input.ts';
import { tokensUsedToday } from './token-budget.ts';

/**
 * Runs an admitted execution to its end, and the children it delegates to: the runtime returns how
 * its work ended (or throws), `endingOf` decides the run's one ending, and the run's recording
 * writes it.
 */
export class RunLauncher {
  private readonly runtime: typeof runAgent;
  private readonly runs = new Set<Promise<void>>();

  constructor(private readonly deps: RunLauncherDeps) {
    this.runtime = deps.runtime ?? runAgent;
  }

  /**
   * Runs an admitted execution, which holds its run slot until its end is recorded; `resumeWith`
   * continues a suspended one from its checkpoint plus the message that resolves it (an approval
   * response or the user's answer). Once it ended, its slot is given back and `onEnded` says whether
   * a message waited in the thread's queue for the next turn.
   */
  launch(admitted: AdmittedRun, resumeWith?: ModelMessage[], admissionStartedAt?: Date): void {
    const { threadId, userId, id } = admitted.execution;
    // A turn is not part of the request that happened to kick it (its trace links to the one that queued it).
    const promise = outsideRequestScope(() => this.runTurn(admitted, resumeWith, admissionStartedAt))
      .catch((error: unknown): Settled => {
        // Only when its end could not be recorded (the database stayed out of reach while the process
        // stopped): the sweeper of the instance that outlives this one's lease interrupts it.
        this.deps.logger.error({ err: error, executionId: id }, 'recording the end of a run failed');
        return { queuedForNextTurn: true };
      })
      .then(({ queuedForNextTurn }) => {
        this.runs.delete(promise);
        this.deps.slots.release(ownerOf(admitted));
        this.deps.onEnded?.(threadId, userId, queuedForNextTurn);
      });
    this.runs.add(promise);
  }

  /** Runs a resumed execution (after an approval or an answer): it takes a slot whatever the caps. */
  resume(admitted: AdmittedRun, resumeWith: ModelMessage[]): void {
    this.deps.slots.take(ownerOf(admitted));
    this.launch(admitted, resumeWith);
  }

  /** Whether every run ended (its end recorded or given up) within `withinMs`. */
  async waitForRuns(withinMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), withinMs);
    });
    try {
      return await Promise.race([Promise.allSettled([...this.runs]).then(() => true as const), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async runTurn(admitted: AdmittedRun, resumeWith: ModelMessage[] | undefined, admissionStartedAt?: Date): Promise<Settled> {
    const { execution, agent, user, handle } = admitted;
    const turn = this.deps.tracing.startTurn({
      executionId: execution.id,
      threadId: execution.threadId,
      queueItemId: resumeWith ? null : execution.queueItemId,
      admissionStartedAt: resumeWith ? undefined : admissionStartedAt,
    });
    const stopTurn = (reason: Error) => handle.controller.abort(reason);
    const gate = this.deps.spendGate?.({ userId: user.id, agent, budgets: admitted.budgets, stop: stopTurn }) ?? null;
    const { recording, conversationLog } = rootRunRecording(this.deps, execution, {
      assistantMessageId: admitted.assistantMessageId,
      onFlushError: (error) => this.deps.logger.error({ err: error, executionId: execution.id }, 'recording streamed text failed'),
      extraListeners: [turn, ...(gate ? [gate] : []), ...(this.deps.runListeners?.(agent, resumeWith ? undefined : admitted.queuedAt) ?? [])],
    });
    handle.showLiveReply(conversationLog);
    try {
      // A resumed run's reply is read back before anything can end the run: it stays one message.
      await conversationLog.open(recording.run);
      const meter = await this.tokenMeter(agent, user.id, handle);
      const answered = resumeWith ? answeredQuestion(resumeWith) : null;
      const setup: RunSetup = {
        recording,
        agent,
        user,
        signal: handle.controller.signal,
        messages: async () =>
          resumeWith ??
          loadCompactedHistory(this.deps, agent, execution.threadId, execution.id, {
            executionId: execution.id,
            onModelCall: async (tokens) => recording.emit({ type: 'model-call', tokens }),
            signal: handle.controller.signal,
          }),
        delegationLog: conversationLog,
        afterStart: answered ? [answered] : [],
        approved: resumeWith ? approvedCall(resumeWith) : null,
        meter,
        gate,
        budgets: admitted.budgets,
        stopTurn,
        turn,
        clientTurn: admitted.clientOffered === false ? null : await clientTurnOf(this.deps.prisma, execution),
      };
      return (await turn.run(() => this.execute(setup))).settled;
    } finally {
      this.deps.running.unregister(execution.id);
      turn.end();
    }
  }

  /**
   * The budget binds while the run streams: what the user's runs of this agent used today is
   * read once at the start, and the run is aborted as soon as it has spent the rest.
   */
  private async tokenMeter(agent: Agent, userId: string, handle: RunningExecution): Promise<TokenMeter> {
    const budget = agent.dailyTokenBudget;
    if (budget === null) return new TokenMeter(null, () => {});
    const left = budget - (await tokensUsedToday(this.deps.prisma, agent.id, userId));
    return new TokenMeter(Math.max(left, 0), () => handle.controller.abort(new TokenBudgetSpent(budget)));
  }

  /** Runs one execution, decides how it ended, and has it recorded. */
  private async execute(setup: RunSetup): Promise<{ ending: RunEnding; outcome: RunOutcome | null; settled: Settled }> {
    const { signal } = setup;
    let stop: RunStop;
    // A Stop that came while the execution was being admitted: it never starts.
    if (signal.aborted) stop = { notStarted: true };
    else {
      try {
        stop = { returned: await this.runtime(await runtimeInput(this.deps, setup, (message, toolCallId, toolSignal) => this.delegate(setup, message, toolCallId, toolSignal ?? signal))) };
      } catch (error) {
        stop = { threw: error };
      }
    }
    const locale = setup.user.locale as Locale;
    // A question card its abort closed says so before the run's end does.
    await this.deps.elicitations?.closesOf(setup.recording.run.executionId);
    const ending = endingOf(stop, { signal, root: setup.recording.run.parentExecutionId === null, locale });
    const settled = await setup.turn.inSpan('parley.settlement', () => this.settlePatiently(setup.recording, ending, locale));
    return { ending, outcome: 'returned' in stop ? stop.returned : null, settled };
  }

  /**
   * The end stays in memory while the database is out of reach and is recorded once it is back;
   * what it is recorded as after the lease ran out is the ending's to say (`endingAfterOutage`).
   */
  private async settlePatiently(recording: RunRecording, ending: RunEnding, locale: Locale): Promise<Settled> {
    const patience = this.deps.outagePatience;
    for (let attempt = 0; ; attempt++) {
      try {
        return await recording.settle(ending);
      } catch (error) {
        if (!patience?.worthRetrying(error)) throw error;
        ending = endingAfterOutage(ending, patience.leaseHeld(), locale);
        await patience.pause(attempt);
      }
    }
  }

  /** Runs a child execution for a `delegate` tool call. */
  private async delegate(parent: RunSetup, message: string, toolCallId: string, signal: AbortSignal): Promise<DelegationResult> {
    const gate = this.deps.spendGate?.({ userId: parent.user.id, agent: parent.agent, budgets: parent.budgets, stop: parent.stopTurn }) ?? null;
    const observers = [...(gate ? [gate] : []), ...(this.deps.runListeners?.(parent.agent) ?? [])];
    const child = await startChildRun(this.deps, { ...parent, log: parent.delegationLog! }, message, toolCallId, observers);
    const { ending, outcome } = await this.execute({
      ...parent,
      gate,
      recording: child.recording,
      signal,
      messages: async () => [{ role: 'user', content: message }],
      delegationLog: null,
      afterStart: [],
      approved: null,
      clientTurn: null,
    });
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    return child.resultOf(ending, outcome);
  }
}

export function ownerOf(run: AdmittedRun): RunOwner {
  return { userId: run.execution.userId, projectId: run.agent.projectId };
}
