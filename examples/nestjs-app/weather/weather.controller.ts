import {
  Body,
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
import type { Result } from 'golem';
import { InjectAgent, sseFromRun, type InjectedAgent } from 'golem/nestjs';
import { AlertsAgent } from './alerts.agent';
import { PausedRuns } from './paused-runs';
import { WeatherAgent, type Forecast, type Traveller } from './weather.agent';
import { AskWeatherDto, DecideDto, SubscribeDto } from './weather.dto';

function traveller(header: string | undefined): Traveller {
  const name = header?.trim().slice(0, 80) ?? '';
  return { name: name === '' ? 'guest' : name };
}

function prompt(ask: AskWeatherDto): string {
  return `Forecast for ${ask.city}, ${ask.days ?? 0} days ahead.`;
}

/** What the alert endpoints answer: the pending calls, or the finished run's output. */
export type AlertsAnswer =
  | {
      status: 'pending';
      runId: string;
      approvals: { callId: string; tool: string; args: string }[];
    }
  | { status: 'done'; output: string };

@Controller('agents/weather')
export class WeatherController {
  constructor(
    @InjectAgent(WeatherAgent) private readonly weather: InjectedAgent<typeof WeatherAgent>,
    @InjectAgent(AlertsAgent) private readonly alerts: InjectedAgent<typeof AlertsAgent>,
    private readonly paused: PausedRuns,
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
    const result = await this.alerts.run(`Subscribe me to alerts for ${body.city}.`, { deps });
    return this.answer(result, deps.name);
  }

  /** Resumes a paused run with the human decisions. */
  @Post('alerts/:runId')
  @HttpCode(200)
  async decide(
    @Param('runId') runId: string,
    @Body() body: DecideDto,
    @Headers('x-user') user?: string,
  ): Promise<AlertsAnswer> {
    const deps = traveller(user);
    const messages = this.paused.take(runId, deps.name);
    if (messages === undefined)
      throw new NotFoundException(`no paused run ${runId} for ${deps.name}`);
    const approvals = Object.fromEntries(
      body.decisions.map((d) => [
        d.callId,
        { approved: d.approved, ...(d.reason !== undefined && { reason: d.reason }) },
      ]),
    );
    const result = await this.alerts.resume(messages, { approvals }, { deps });
    return this.answer(result, deps.name);
  }

  private answer(result: Result<string>, owner: string): AlertsAnswer {
    if (result.pending === undefined) return { status: 'done', output: result.output };
    return {
      status: 'pending',
      runId: this.paused.save(owner, result.messages),
      approvals: result.pending.approvals.map((call) => ({
        callId: call.callId,
        tool: call.toolName,
        args: call.args,
      })),
    };
  }
}
