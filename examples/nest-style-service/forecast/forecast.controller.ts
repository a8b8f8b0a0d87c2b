import { inject, injectable } from 'inversify';
import type { CompletedResult, RunStream, Usage } from 'golem';
import { agentOf, type ResolvedAgent } from 'golem/container';
import { WeatherAgent, type Forecast, type Traveller } from '../weather/weather.agent';
import type { ForecastRequest } from './forecast.request';

/** The JSON body of `POST /forecast` and of the stream's `result` event. */
export interface ForecastResponse {
  output: Forecast;
  usage: Usage;
  requests: number;
  toolCalls: number;
}

/** The response body of a finished run. */
export function forecastResponse(result: CompletedResult<Forecast>): ForecastResponse {
  const { output, usage, requests, toolCalls } = result;
  return { output, usage, requests, toolCalls };
}

function prompt(request: ForecastRequest): string {
  const days = request.days ?? 0;
  return `What is the weather in ${request.city} ${days === 0 ? 'today' : `in ${days} day(s)`}?`;
}

/**
 * The controller: the HTTP-free handlers of the forecast routes. The agent is injected by its
 * typed token, so `this.agent.run` returns a `Forecast` with no cast. Per-request data (the
 * traveller) travels in the run's `deps`, so the one singleton agent serves every request.
 */
@injectable()
export class ForecastController {
  constructor(
    @inject(agentOf(WeatherAgent)) private readonly agent: ResolvedAgent<typeof WeatherAgent>,
  ) {}

  /** `POST /forecast`: runs the agent and returns the typed result. */
  async forecast(
    request: ForecastRequest,
    traveller: Traveller,
    signal: AbortSignal,
  ): Promise<ForecastResponse> {
    return forecastResponse(await this.agent.run(prompt(request), { deps: traveller, signal }));
  }

  /** `GET|POST /forecast/stream`: the run as a stream of deltas, then its result. */
  stream(request: ForecastRequest, traveller: Traveller, signal: AbortSignal): RunStream<Forecast> {
    return this.agent.runStream(prompt(request), { deps: traveller, signal });
  }
}
