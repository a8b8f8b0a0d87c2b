import { createHash } from 'node:crypto';
import {
  Body,
  ConflictException,
  Controller,
  Headers,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Query,
  Sse,
  type MessageEvent,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import { loadRun, StoreError, type Result, type RunStore } from 'golem';
import { InjectAgent, InjectRunStore, sseFromRun, type InjectedAgent } from 'golem/nestjs';
import { AlertsAgent } from './alerts.agent';
import { WeatherAgent, type Forecast, type Traveller } from './weather.agent';
import { AskWeatherDto, DecideDto, SubscribeDto } from './weather.dto';

function traveller(header: string | undefined): Traveller {
  const name = header?.trim().slice(0, 80) ?? '';
  return { name: name === '' ? 'guest' : name };
}

function prompt(ask: AskWeatherDto): string {
  return `Forecast for ${ask.city}, ${ask.days ?? 0} days ahead.`;
}

/**
 * The traveller's alerts conversation. Every stored run keeps its conversation id, so it tells
 * whose a paused run is. Hashed: an id is printable ASCII (at most 200), a name may not be.
 */
function alertsConversation(owner: string): string {
  return `alerts-${createHash('sha256').update(owner).digest('hex').slice(0, 32)}`;
}

/** The store refused to start or continue a run (one is unfinished or being resumed): a 409. */
function refused(error: unknown): never {
  if (StoreError.isReason(error, 'conflict') || StoreError.isReason(error, 'invalid-state'))
    throw new ConflictException(`alerts run ${error.runId ?? '?'} is unfinished: decide it first`);
  throw error;
}

/** What the alert endpoints answer: the pending calls, or the finished run's output. */
export type AlertsAnswer =
  | {
      status: 'pending';
      runId: string;
      approvals: { callId: string; tool: string; args: string }[];
    }
  | { status: 'done'; output: string };

/** The finished run's output, or its stored id and the calls it waits for. */
function answer(result: Result<string>): AlertsAnswer {
  if (result.pending === undefined) return { status: 'done', output: result.output };
  const { runId } = result;
  if (runId === undefined) throw new Error('the run was not stored: GolemModule needs a store');
  return {
    status: 'pending',
    runId,
    approvals: result.pending.approvals.map((call) => ({
      callId: call.callId,
      tool: call.toolName,
      args: call.args,
    })),
  };
}

@Controller('agents/weather')
export class WeatherController {
  constructor(
    @InjectAgent(WeatherAgent) private readonly weather: InjectedAgent<typeof WeatherAgent>,
    @InjectAgent(AlertsAgent) private readonly alerts: InjectedAgent<typeof AlertsAgent>,
    @InjectRunStore() private readonly store: RunStore,
  ) {}

  /** The typed forecast; a failed run is a 502 with its stage (GolemExceptionFilter). */
  @Post()
  @HttpCode(200)
  async ask(
    @Body() body: AskWeatherDto,
    @Headers('x-user') user?: string,
  ): Promise<{ output: Forecast; requests: number }> {
    const result = await this.weather.run(prompt(body), { deps: traveller(user) });
    return { output: result.output, requests: result.requests };
  }

  /** The same run as server-sent events; closing the connection aborts the run. */
  @Sse('stream')
  stream(
    @Query() query: AskWeatherDto,
    @Headers('x-user') user?: string,
  ): Observable<MessageEvent> {
    const deps = traveller(user);
    return sseFromRun((signal) => this.weather.runStream(prompt(query), { deps, signal }));
  }

  /** Starts a run that pauses on the approval-gated tool: answers the pending calls. */
  @Post('alerts')
  @HttpCode(200)
  async subscribe(
    @Body() body: SubscribeDto,
    @Headers('x-user') user?: string,
  ): Promise<AlertsAnswer> {
    const deps = traveller(user);
    const result = await this.alerts
      .run(`Subscribe me to alerts for ${body.city}.`, {
        deps,
        conversation: alertsConversation(deps.name),
      })
      .catch(refused);
    return answer(result);
  }

  /** Resumes the caller's paused run, by id, from the store, with the human decisions. */
  @Post('alerts/:runId')
  @HttpCode(200)
  async decide(
    @Param('runId') runId: string,
    @Body() body: DecideDto,
    @Headers('x-user') user?: string,
  ): Promise<AlertsAnswer> {
    const deps = traveller(user);
    const run = await loadRun(this.store, runId).catch((error: unknown) => {
      if (StoreError.isReason(error, 'not-found')) return undefined;
      throw error;
    });
    if (run?.status !== 'paused' || run.conversationId !== alertsConversation(deps.name))
      throw new NotFoundException(`no paused run ${runId} for ${deps.name}`);
    const approvals = Object.fromEntries(
      body.decisions.map((d) => [
        d.callId,
        { approved: d.approved, ...(d.reason !== undefined && { reason: d.reason }) },
      ]),
    );
    // Dependencies are never stored: the run gets the traveller again.
    const result = await this.alerts.resume(runId, { approvals }, { deps }).catch(refused);
    return answer(result);
  }
}
