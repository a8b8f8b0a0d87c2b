import { IsString, Length } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { ToolContext } from 'golem';
import { Agent, DEPS_TYPE, Describe, Instructions, PAUSABLE_TYPE, Tool } from 'golem/decorators';
import type { Traveller } from './weather.agent';
import { WeatherRepository } from './weather.repository';

/** The arguments of the approval-gated tool. */
export class SubscribeArgs {
  @Describe('City to send weather alerts for')
  @JSONSchema({ examples: ['Oslo'] })
  @IsString()
  @Length(1, 80)
  city!: string;
}

/**
 * An agent whose tool needs a human decision: a run pauses on the call (`deferredTools`), the
 * HTTP client approves or denies it, and the run resumes.
 */
@Agent({ model: 'default', maxIterations: 4, deferredTools: true })
@Instructions('You manage weather alert subscriptions.')
export class AlertsAgent {
  declare readonly [DEPS_TYPE]: Traveller;
  declare readonly [PAUSABLE_TYPE]: true;

  constructor(private readonly repository: WeatherRepository) {}

  @Tool({ description: 'Subscribe the traveller to alerts for a city', approval: true })
  subscribe(args: SubscribeArgs, ctx: ToolContext<Traveller>): string {
    return this.repository.subscribe(args.city, ctx.deps.name);
  }
}
