/**
 * The bench's decorated agents, written as a user writes them. `npm run bench` transpiles this
 * file with the repository's TypeScript and tsconfig options (legacy decorators and decorator
 * metadata, as tsc emits them for users) and points `golem/decorators` at the built dist.
 *
 * Each `define…` call declares fresh classes (argument DTO, output DTO, agent), so scenario (g)
 * can time the builder on a class it has never compiled.
 */
import { IsInt, IsNumber, IsString } from 'class-validator';
import { Agent, Describe, Instructions, OUTPUT_TYPE, Output, Tool } from 'golem/decorators';

const SYSTEM = 'You add numbers with the add tool, then say done.';

/** The scenario (a) agent: one `add` tool whose arguments are a validated DTO. */
export function defineAdderAgent(): new () => object {
  class AddArgs {
    @Describe('First addend') @IsNumber() a!: number;
    @Describe('Second addend') @IsNumber() b!: number;
  }

  @Agent()
  @Instructions(SYSTEM)
  class AdderAgent {
    @Tool({ description: 'Add two numbers' })
    add(args: AddArgs): string {
      return String(args.a + args.b);
    }
  }
  return AdderAgent;
}

/** The scenario (b) agent: native structured output validated into a `Forecast`. */
export function defineForecastAgent(): new () => object {
  class Forecast {
    @IsString() city!: string;
    @IsInt() celsius!: number;
  }

  @Agent()
  @Instructions(SYSTEM)
  @Output(Forecast)
  class ForecastAgent {
    declare readonly [OUTPUT_TYPE]: Forecast;
  }
  return ForecastAgent;
}
